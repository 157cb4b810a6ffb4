"""Context switches per 1,000 calls, from the rusage of a cell's result headers.

A driver records `rusage` (voluntary and involuntary context switches among
it) over its measured loop, or, for a server, over the whole time it served
(docs/driver-contract.md). Per 1,000 calls, the client's count is divided by
the calls of the measured loop (`sample_count x batch_size`), the server's by
every call it served: the measured ones and the client's warm-up (`warmup`
per client thread), since a server cannot tell them apart. Two switches per
call is what a blocking ping-pong on one CPU costs each end (one to sleep in
recv(), one to wake); CCMPerf reads the figure as the middleware's share of
the operating system's work.
"""


def switches(header: dict | None) -> int | None:
    """Voluntary plus involuntary context switches of a header's rusage; None without one."""
    usage = (header or {}).get("rusage")
    if not usage:
        return None
    return int(usage["voluntary_switches"]) + int(usage["involuntary_switches"])


def per_1000_calls(measurer_header: dict | None, server_header: dict | None
                   ) -> tuple[float | None, float | None]:
    """(client, server) context switches per 1,000 calls of one cell; None where unknown.

    A collocated cell has no server: its one process is the client."""
    if not measurer_header:
        return None, None
    measured = int(measurer_header.get("sample_count", 0)) * int(
        measurer_header.get("batch_size", 1))
    served = measured + int(measurer_header.get("warmup", 0)) * int(
        measurer_header.get("threads", 1))

    def rate(count, calls):
        return None if count is None or calls <= 0 else 1000.0 * count / calls

    return rate(switches(measurer_header), measured), rate(switches(server_header), served)
