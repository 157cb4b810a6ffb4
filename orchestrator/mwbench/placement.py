"""Placement: which CPU each end of a cell runs on, and the idle-state hold.

On a small virtual machine, waking a process that sleeps on the other CPU
costs tens of microseconds, more than the call being measured. So where the
two ends run is a factor of every experiment, never left to chance:

- `same-cpu`: client and server pinned to one CPU (a wake-up is a context
  switch, not an inter-processor interrupt);
- `cross-cpu`: client and server pinned to two different CPUs;
- `unpinned`: the scheduler decides (what an untuned deployment sees).

The idle hold keeps /dev/cpu_dma_latency open with the value 0, which tells
the kernel not to put CPUs into deep idle states while it is held; the kernel
drops the request when the file is closed. Whether it was actually held is
recorded with every cell.
"""

import os
import struct
from dataclasses import dataclass

CPU_DMA_LATENCY = "/dev/cpu_dma_latency"
CLIENT_CPU = 0
SERVER_CPU_CROSS = 1


@dataclass(frozen=True)
class CpuAssignment:
    client_cpu: int | None
    server_cpu: int | None


def assign_cpus(placement: str) -> CpuAssignment:
    if placement == "same-cpu":
        return CpuAssignment(CLIENT_CPU, CLIENT_CPU)
    if placement == "cross-cpu":
        return CpuAssignment(CLIENT_CPU, SERVER_CPU_CROSS)
    if placement == "unpinned":
        return CpuAssignment(None, None)
    raise ValueError(f"unknown placement {placement!r}")


class IdleHold:
    """Context manager holding CPUs out of deep idle states, if it can."""

    def __init__(self, wanted: bool, device: str = CPU_DMA_LATENCY):
        self.wanted = wanted
        self.device = device
        self.held = False
        self.problem: str | None = None
        self._fd: int | None = None

    def __enter__(self) -> "IdleHold":
        if not self.wanted:
            return self
        try:
            self._fd = os.open(self.device, os.O_WRONLY)
            os.write(self._fd, struct.pack("i", 0))
            self.held = True
        except OSError as error:
            self.problem = f"idle hold not taken: {self.device}: {error.strerror}"
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
        return self

    def __exit__(self, *exc_info) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.held = False
