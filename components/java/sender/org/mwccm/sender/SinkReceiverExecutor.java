package org.mwccm.sender;

import java.util.concurrent.atomic.AtomicInteger;

/** Bench::Sink::Receiver's executor: counts what its sinks receive. */
public final class SinkReceiverExecutor extends Bench.Sink.ReceiverExecutorBase {
    private static final long serialVersionUID = 1L;
    final transient AtomicInteger ticks = new AtomicInteger();
    final transient AtomicInteger samples = new AtomicInteger();
    short priority;

    @Override
    public Bench.Sink.CCM_RoundTrip get_echo() {
        return new Echo();
    }

    @Override
    public void push_ticks(Bench.Tick event) {
        ticks.incrementAndGet();
    }

    @Override
    public void push_samples(Bench.Sample event) {
        samples.incrementAndGet();
    }

    @Override
    public short priority() {
        return priority;
    }

    @Override
    public void priority(short value) {
        priority = value;
    }
}
