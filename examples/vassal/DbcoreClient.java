// DbcoreClient.java: a Vassal-style client of the dbcore referee, Java 11, JDK only.
//
// It starts `dbcore serve --stdio` as a child process (as a Vassal module would), speaks
// JSON-RPC 2.0 one line each way, and plays a few actions of a battle in the `vassal` frame
// (pixels, y down the screen, 50 pixels a base width):
//
//     javac --release 11 -d out examples/vassal/DbcoreClient.java
//     java -cp out DbcoreClient path/to/dbcore tests/golden/into_contact.json
//
// The set-up file may be a set-up or a golden trace (its record's set-up is used). The program
// prints what it checks and ends with "N passed, N failed"; its exit status is 1 on a failure.
// Nothing about the rules is decided here: the referee answers every question.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class DbcoreClient implements AutoCloseable {
    private final Process process;
    private final BufferedWriter toReferee;
    private final BufferedReader fromReferee;
    private long nextId = 0;

    /** Start the referee as a child process speaking JSON Lines on its stdin and stdout. */
    public DbcoreClient(String program) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(program, "serve", "--stdio");
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        process = pb.start();
        toReferee = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        fromReferee = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** A JSON-RPC error answered by the referee. */
    public static final class RpcException extends Exception {
        private static final long serialVersionUID = 1L;
        public final long code;
        public final Object data;

        RpcException(long code, String message, Object data) {
            super(message);
            this.code = code;
            this.data = data;
        }
    }

    /** One call: `paramsJson` is the params object as JSON text; the result comes back parsed. */
    public Object call(String method, String paramsJson) throws IOException, RpcException {
        long id = ++nextId;
        String line = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":" + Json.quote(method)
                + ",\"params\":" + paramsJson + "}";
        toReferee.write(line);
        toReferee.write('\n');
        toReferee.flush();
        String answer = fromReferee.readLine();
        if (answer == null) {
            throw new IOException("the referee closed its output");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> response = (Map<String, Object>) Json.parse(answer);
        if (!Long.valueOf(id).equals(response.get("id"))) {
            throw new IOException("answer out of order: " + answer);
        }
        if (response.containsKey("error")) {
            Map<?, ?> e = (Map<?, ?>) response.get("error");
            throw new RpcException((Long) e.get("code"), (String) e.get("message"), e.get("data"));
        }
        return response.get("result");
    }

    @Override
    public void close() throws IOException {
        toReferee.close(); // end of input: the referee exits
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------
    // A small JSON reader and writer (the JDK has none).
    // ------------------------------------------------------------------------------------

    /** JSON values as Map (in key order), List, String, Long, Double, Boolean and null. */
    static final class Json {
        private final String s;
        private int i = 0;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json p = new Json(text);
            Object v = p.value();
            p.space();
            if (p.i != text.length()) {
                throw new IllegalArgumentException("trailing text at " + p.i);
            }
            return v;
        }

        static String quote(String v) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : v.toCharArray()) {
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            return b.append('"').toString();
        }

        static String write(Object v) {
            if (v == null) {
                return "null";
            } else if (v instanceof String) {
                return quote((String) v);
            } else if (v instanceof Map) {
                StringBuilder b = new StringBuilder("{");
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (b.length() > 1) {
                        b.append(',');
                    }
                    b.append(quote((String) e.getKey())).append(':').append(write(e.getValue()));
                }
                return b.append('}').toString();
            } else if (v instanceof List) {
                StringBuilder b = new StringBuilder("[");
                for (Object o : (List<?>) v) {
                    if (b.length() > 1) {
                        b.append(',');
                    }
                    b.append(write(o));
                }
                return b.append(']').toString();
            }
            return String.valueOf(v);
        }

        private void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() {
            space();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                i++;
                space();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    space();
                    String k = string();
                    space();
                    expect(':');
                    m.put(k, value());
                    space();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect('}');
                        return m;
                    }
                }
            } else if (c == '[') {
                List<Object> l = new ArrayList<>();
                i++;
                space();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    space();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect(']');
                        return l;
                    }
                }
            } else if (c == '"') {
                return string();
            } else if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            } else if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            } else if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String n = s.substring(start, i);
            if (n.isEmpty()) {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + start);
            }
            if (n.contains(".") || n.contains("e") || n.contains("E")) {
                return Double.parseDouble(n);
            }
            return Long.parseLong(n);
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
            i++;
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n': b.append('\n'); break;
                        case 't': b.append('\t'); break;
                        case 'r': b.append('\r'); break;
                        case 'b': b.append('\b'); break;
                        case 'f': b.append('\f'); break;
                        case 'u':
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                            break;
                        default: b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------
    // The demonstration: a few actions of a battle, checked.
    // ------------------------------------------------------------------------------------

    private static int passed = 0;
    private static int failed = 0;

    private static void check(String what, boolean ok) {
        if (ok) {
            passed++;
            System.out.println("ok   " + what);
        } else {
            failed++;
            System.out.println("FAIL " + what);
        }
    }

    private static Object at(Object v, Object... path) {
        for (Object p : path) {
            if (v instanceof Map) {
                v = ((Map<?, ?>) v).get(p);
            } else if (v instanceof List && p instanceof Integer) {
                v = ((List<?>) v).get((Integer) p);
            } else {
                return null;
            }
        }
        return v;
    }

    /** The element `id` of a battle.state result. */
    private static Map<?, ?> element(Object state, long id) {
        for (Object e : (List<?>) at(state, "elements")) {
            if (Long.valueOf(id).equals(at(e, "id"))) {
                return (Map<?, ?>) e;
            }
        }
        return null;
    }

    /** A BW set-up's points and poses in the vassal frame: 50 px a BW, y down from the top. */
    @SuppressWarnings("unchecked")
    private static Object toPixels(Object v, double boardDepth) {
        if (v instanceof Map) {
            Map<String, Object> m = (Map<String, Object>) v;
            boolean point = m.size() == 2 && m.containsKey("x") && m.containsKey("y");
            boolean pose = m.size() == 3 && m.containsKey("x") && m.containsKey("y") && m.containsKey("facing");
            Map<String, Object> out = new LinkedHashMap<>();
            if (point || pose) {
                out.put("x", ((Number) m.get("x")).doubleValue() * 50.0);
                out.put("y", (boardDepth - ((Number) m.get("y")).doubleValue()) * 50.0);
                if (pose) {
                    out.put("facing", m.get("facing"));
                }
                return out;
            }
            for (Map.Entry<String, Object> e : m.entrySet()) {
                out.put(e.getKey(), toPixels(e.getValue(), boardDepth));
            }
            return out;
        } else if (v instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) v) {
                out.add(toPixels(o, boardDepth));
            }
            return out;
        }
        return v;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: DbcoreClient DBCORE-PROGRAM SETUP.json");
            System.exit(2);
        }
        String text = new String(Files.readAllBytes(Paths.get(args[1])), StandardCharsets.UTF_8);
        Object file = Json.parse(text);
        Object setup = at(file, "record", "setup") != null ? at(file, "record", "setup") : file;
        try (DbcoreClient referee = new DbcoreClient(args[0])) {
            Object hello = referee.call("hello", "{\"protocol\":[1],\"frame\":{\"preset\":\"vassal\",\"units_per_bw\":50}}");
            check("hello speaks protocol 1", Long.valueOf(1).equals(at(hello, "protocol")));
            check("the vassal frame is in force", "vassal".equals(at(hello, "frame", "preset")));

            // A Vassal module knows its pieces in pixels: the set-up goes over in pixels too.
            Object created = referee.call("battle.create", "{\"setup\":" + Json.write(toPixels(setup, 15.0)) + "}");
            check("battle.create gives an id at revision 0",
                    at(created, "battle") instanceof String && Long.valueOf(0).equals(at(created, "revision")));
            String b = Json.quote((String) at(created, "battle"));

            Object legal = referee.call("battle.legal", "{\"battle\":" + b + "}");
            check("the PIP die is awaited", "pips".equals(at(legal, "legal", "dice", "for")));

            Object rolled = referee.call("battle.apply", "{\"battle\":" + b + ",\"revision\":0,\"action\":{\"action\":\"roll_pips\",\"die\":6}}");
            check("the PIP die applies", Long.valueOf(1).equals(at(rolled, "revision")));

            Object state = referee.call("battle.state", "{\"battle\":" + b + "}");
            Map<?, ?> two = element(state, 2);
            Object y = at(two, "pose", "y");
            // Element 2 stands at y = 10.5 BW on a 15 BW board: 4.5 BW from the top, 225 px.
            check("poses come in pixels from the top edge", y instanceof Double && Math.abs((Double) y - 225.0) < 1e-9);

            // Half a BW up the screen (25 px), the facing given as a unit vector: screen up.
            double x = (Double) at(two, "pose", "x");
            String move = "{\"action\":\"move\",\"order\":{\"type\":\"element\",\"id\":2,\"path\":[{\"x\":" + x
                    + ",\"y\":200.0,\"facing\":[0.0,-1.0]}]}}";
            Object checked = referee.call("battle.check", "{\"battle\":" + b + ",\"action\":" + move + "}");
            check("the move is legal", Boolean.TRUE.equals(at(checked, "legal")));
            Object moved = referee.call("battle.apply", "{\"battle\":" + b + ",\"revision\":1,\"action\":" + move + "}");
            Object to = at(moved, "events", 0, "moves", 0, "to");
            check("it ends where it was sent", Double.valueOf(200.0).equals(at(to, "y")) && Double.valueOf(0.0).equals(at(to, "facing")));
            check("its distance is in pixels", Double.valueOf(25.0).equals(at(moved, "events", 0, "distance")));

            try {
                referee.call("battle.apply", "{\"battle\":" + b + ",\"revision\":1,\"action\":{\"action\":\"end_movement\"}}");
                check("a stale revision is refused", false);
            } catch (RpcException e) {
                check("a stale revision is refused", e.code == -32002);
            }
            Object refused = referee.call("battle.check", "{\"battle\":" + b + ",\"action\":{\"action\":\"roll_pips\",\"die\":3}}");
            check("a refusal names its rule", Boolean.FALSE.equals(at(refused, "legal")) && "§6.1".equals(at(refused, "refusal", "rule")));
            Object ended = referee.call("battle.apply", "{\"battle\":" + b + ",\"revision\":2,\"action\":{\"action\":\"end_movement\"}}");
            check("the movement phase ends", Long.valueOf(3).equals(at(ended, "revision")));
        }
        System.out.println(passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }
}
