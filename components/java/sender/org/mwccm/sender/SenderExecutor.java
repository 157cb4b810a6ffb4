package org.mwccm.sender;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Bench::Sender's executor: its attributes, and the lifecycle calls it received, in order. */
public final class SenderExecutor extends Bench.SenderExecutorBase {
    private static final long serialVersionUID = 1L;
    final transient List<String> lifecycle = new CopyOnWriteArrayList<>();
    int rate;
    boolean verbose;
    double ratio;
    long offset;
    Bench.Pace speed = Bench.Pace.SLOW;
    String label = "";
    int echoes;

    @Override
    public void set_session_context(Components.SessionContext ctx) throws Components.CCMException {
        super.set_session_context(ctx);
        lifecycle.add("set_session_context");
    }

    @Override
    public void configuration_complete() {
        lifecycle.add("configuration_complete");
    }

    @Override
    public void ccm_activate() {
        lifecycle.add("ccm_activate");
    }

    @Override
    public void ccm_passivate() {
        lifecycle.add("ccm_passivate");
    }

    @Override
    public void ccm_remove() {
        lifecycle.add("ccm_remove");
    }

    Bench.SenderContext senderContext() {
        return context();
    }

    @Override
    public Bench.CCM_RoundTrip get_control() {
        return new Echo();
    }

    @Override
    public void push_echoes(Bench.Tick event) {
        ++echoes;
    }

    @Override
    public int rate() {
        return rate;
    }

    @Override
    public void rate(int value) {
        rate = value;
    }

    @Override
    public boolean verbose() {
        return verbose;
    }

    @Override
    public void verbose(boolean value) {
        verbose = value;
    }

    @Override
    public double ratio() {
        return ratio;
    }

    @Override
    public void ratio(double value) {
        ratio = value;
    }

    @Override
    public long offset() {
        return offset;
    }

    @Override
    public void offset(long value) {
        offset = value;
    }

    @Override
    public Bench.Pace speed() {
        return speed;
    }

    @Override
    public void speed(Bench.Pace value) {
        speed = value;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public void label(String value) {
        label = value;
    }

    @Override
    public String state() {
        return String.join(",", lifecycle);
    }
}
