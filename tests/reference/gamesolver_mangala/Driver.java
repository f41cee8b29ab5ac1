// Plays seeded random games of Mangala in muhammed-enes-koroglu/gameSolver's
// MangalaState (src/games/Mangala/MangalaState.java, Java) and writes them
// as kete's reference traces, one game a JSON line (see tests/reference.rs).
//
//     java -cp CLASSES games.mangala.Driver CHECKOUT SEED GAMES OUT.jsonl
//
// CLASSES holds this class compiled together with the checkout's own
// classes (MangalaState and what it uses: util.Board, util.ConsoleColors,
// util.SigmoidScaler, interfaces.TwoPersonGameState); CHECKOUT is that
// checkout, read for its commit. Nothing of it is copied here. The class
// sits in MangalaState's package to call its protected `playTrench`, the
// method `children()` plays each trench with. Game g of the run uses the
// seed SEED + g.
//
// Legal moves: MangalaState has no list of moves, only `children()`, the
// set of positions the player to move can reach. A trench of the mover's
// row is a legal move when `playTrench` from it gives one of those
// children; the driver checks that the trenches found reach every child.
//
// How its board maps onto kete's position token: the board is one row of
// 14 places sown in increasing order, 0..5 white's trenches from his left,
// 6 his treasury, 7..12 black's trenches from his left, 13 black's
// treasury. White moves first and is kete's South. The token is places
// 0..5, 7..12, then 6 and 13, then S or N for the player to move. The game
// is over when `isGameOver()`; the treasuries then hold every stone.

package games.mangala;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import util.Board;

public final class Driver {
    private static final String FILE = "src/games/Mangala/MangalaState.java";

    private Driver() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: Driver CHECKOUT SEED GAMES OUT.jsonl");
            System.exit(2);
        }
        String commit = commitOf(args[0]);
        long first = Long.parseLong(args[1]);
        int games = Integer.parseInt(args[2]);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[3]), StandardCharsets.UTF_8))) {
            for (int g = 0; g < games; g++) {
                out.println(play(commit, first + g));
            }
        }
    }

    private static String commitOf(String checkout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("git", "-C", checkout, "rev-parse", "HEAD").start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            if (p.waitFor() != 0 || line == null) {
                throw new IOException("not a git checkout: " + checkout);
            }
            return line.trim();
        }
    }

    private static String letter(int trench) {
        return trench <= 5 ? String.valueOf((char) ('A' + trench)) : String.valueOf((char) ('a' + trench - 7));
    }

    private static String token(MangalaState s) {
        int[] p = s.getBoard().getRow(0);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i <= 5; i++) b.append(p[i]).append('-');
        for (int i = 7; i <= 12; i++) b.append(p[i]).append('-');
        b.append(p[6]).append('-').append(p[13]).append('-');
        b.append(s.isWhitesTurn() ? 'S' : 'N');
        return b.toString();
    }

    private static String play(String commit, long seed) {
        Random random = new Random(seed);
        MangalaState state = new MangalaState(
                new Board(new int[][] {new int[] {4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0}}), true, true);
        StringBuilder plies = new StringBuilder();
        String start = token(state);
        int count = 0;
        String why = null;
        while (!state.isGameOver() && count < 2000) {
            Set<MangalaState> children = state.children();
            List<Integer> legal = new ArrayList<>();
            List<MangalaState> reached = new ArrayList<>();
            int offset = state.isWhitesTurn() ? 0 : 7;
            Set<MangalaState> found = new HashSet<>();
            for (int t = offset; t < offset + 6; t++) {
                MangalaState child = state.playTrench(new HashSet<>(), t, state.getBoard());
                // playTrench gives its result with whiteIsMax set to the
                // side to move; children() keeps the parent's. Equality
                // looks at the board and the side to move only.
                if (children.contains(child)) {
                    legal.add(t);
                    reached.add(child);
                    found.add(child);
                }
            }
            if (!found.equals(children)) {
                throw new IllegalStateException("seed " + seed + ": the trenches do not reach every child of " + token(state));
            }
            if (legal.isEmpty()) {
                why = "no child in an unfinished game";
                break;
            }
            // The moves in letter order, as every driver lists them.
            int pick = random.nextInt(legal.size());
            int trench = legal.get(pick);
            state = reached.get(pick);
            if (count > 0) plies.append(',');
            plies.append("{\"legal\":[");
            for (int i = 0; i < legal.size(); i++) {
                if (i > 0) plies.append(',');
                plies.append('"').append(letter(legal.get(i))).append('"');
            }
            plies.append("],\"move\":\"").append(letter(trench)).append("\",\"after\":\"").append(token(state)).append("\"}");
            count++;
        }
        StringBuilder end = new StringBuilder("{\"over\":");
        if (state.isGameOver()) {
            int[] p = state.getBoard().getRow(0);
            String result = p[6] > p[13] ? "p1win" : p[6] < p[13] ? "p2win" : "draw";
            end.append("true,\"result\":\"").append(result).append("\",\"seeds\":[").append(p[6]).append(',').append(p[13]).append(']');
        } else {
            end.append("false,\"result\":null,\"seeds\":null");
        }
        if (why != null) end.append(",\"why\":\"").append(why).append('"');
        end.append('}');
        return "{\"implementation\":\"muhammed-enes-koroglu/gameSolver@" + commit + " " + FILE
                + "\",\"game\":\"mangala\",\"seed\":" + seed + ",\"start\":\"" + start + "\",\"plies\":[" + plies
                + "],\"end\":" + end + "}";
    }
}
