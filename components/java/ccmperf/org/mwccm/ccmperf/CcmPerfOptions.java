package org.mwccm.ccmperf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The arguments of CcmPerfHost; a usage error exits 2 naming the argument. */
final class CcmPerfOptions {
    static final String USAGE = "usage: CcmPerfHost [--caller] --endpoint-file PATH [--bind HOST]\n"
            + "         [--payload-bytes N] [--verify] [--calls N] [--events N] [-ORB... ORB arguments]";

    boolean caller;
    Path endpointFile;
    String bind = "127.0.0.1";
    int payloadBytes;
    boolean verify;
    long calls = 1000;
    long events;
    String[] orbArguments = new String[0];

    static CcmPerfOptions parse(String[] args) {
        CcmPerfOptions options = new CcmPerfOptions();
        List<String> orb = new ArrayList<>();
        for (int i = 0; i < args.length; ++i) {
            String arg = args[i];
            switch (arg) {
                case "--caller" -> options.caller = true;
                case "--verify" -> options.verify = true;
                case "--endpoint-file" -> options.endpointFile = Path.of(value(args, ++i, arg));
                case "--bind" -> options.bind = value(args, ++i, arg);
                case "--payload-bytes" -> options.payloadBytes = (int) number(args, ++i, arg, 0xffffffffL);
                case "--calls" -> options.calls = number(args, ++i, arg, Long.MAX_VALUE);
                case "--events" -> options.events = number(args, ++i, arg, Long.MAX_VALUE);
                default -> {
                    if (!arg.startsWith("-ORB")) {
                        usage("unknown argument '" + arg + "'");
                    }
                    orb.add(arg);
                    orb.add(value(args, ++i, arg));
                }
            }
        }
        if (options.endpointFile == null) {
            usage("--endpoint-file is required");
        }
        options.orbArguments = orb.toArray(new String[0]);
        return options;
    }

    private static String value(String[] args, int at, String name) {
        if (at >= args.length) {
            usage(name + " needs a value");
        }
        return args[at];
    }

    private static long number(String[] args, int at, String name, long most) {
        String text = value(args, at, name);
        try {
            long n = Long.parseLong(text);
            if (n >= 0 && n <= most) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        usage(name + " takes a whole number from 0 to " + most + ", not '" + text + "'");
        return 0;
    }

    private static void usage(String why) {
        System.err.println("CcmPerfHost: error: " + why);
        System.err.println(USAGE);
        System.exit(2);
    }
}
