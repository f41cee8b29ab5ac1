// LudiiTrace: plays seeded random games of a Ludii game headless and writes one
// JSON line per game with the board layout, the start state, every decision
// (all legal moves, the chosen one, the state after it) and the outcome.
//
// Compiled and run against a headless Ludii build ($KETE_LUDII/classes holds Ludii's
// Common, Language and Core classes plus the unpacked Trove/commons-rng jar;
// $KETE_LUDII/res holds the resources lud/, def/, help/):
//   javac -cp "$KETE_LUDII/classes" -d OUT tests/ludii/LudiiTrace.java
//   java -cp "$KETE_LUDII/classes:$KETE_LUDII/res:OUT" LudiiTrace \
//        --game Kalah.lud --games 200 --seed 1 --max-plies 2000 --out trace.jsonl
//
// Options:
//   --game NAME         .lud file name (resolved under /lud/ on the class path)
//   --ruleset NAME      e.g. "Ruleset/Awari (Suggested)"; its option settings are used
//   --option STR        e.g. "Play Rules/12 counters max by hole" (repeatable; overrides
//                       the ruleset's setting of the same option heading)
//   --games N           number of games (default 1)
//   --seed S            game i uses java.util.Random(S + i) (default 1)
//   --max-plies P       stop a game after P decisions (default 2000)
//   --out FILE          output file (default: standard output)
//   --effects all|none  for every legal move, list the actions it would apply
//                       including consequences (default all; needed to tell apart
//                       legal moves with the same text, e.g. two sowing directions)
//   --stop-at-round-end stop a game after the first decision that changes any player's
//                       phase (for multi-round games: Sowing -> BetweenRounds)
//   --opening-phases N  the game's first N phases are its opening (English Wari's Init,
//                       Adjiboto's Opening): leaving them is no round end
//   --ludii-limits      keep Ludii's own turn/move limits (by default they are lifted
//                       so that --max-plies is the only artificial stop)
//   --info              print the game's options/rulesets/phases to stderr
//
// Only Ludii and the JDK are used; JSON is written by hand.

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import game.Game;
import game.equipment.container.Container;
import game.equipment.container.board.Track;
import game.equipment.other.Regions;
import game.rules.phase.Phase;
import game.types.board.SiteType;
import main.collections.FastTIntArrayList;
import main.options.Ruleset;
import other.GameLoader;
import other.action.Action;
import other.action.ActionType;
import other.context.Context;
import other.move.Move;
import other.state.State;
import other.state.container.ContainerState;
import other.topology.TopologyElement;
import other.trial.Trial;

public final class LudiiTrace
{
	// ---------------------------------------------------------------- options

	private String gameName;
	private String rulesetName;
	private final List<String> options = new ArrayList<>();
	private int numGames = 1;
	private long seed = 1;
	private int maxPlies = 2000;
	private String outPath;
	private boolean effects = true;
	private boolean ludiiLimits = false;
	private boolean stopAtRoundEnd = false;
	private int openingPhases = 0;
	private boolean info = false;

	// ---------------------------------------------------------------- game facts

	private Game game;
	private int numSites;            // all sites of all containers (global indices)
	private SiteType[] siteTypes;    // graph element type of each global site
	private boolean stacking;
	private boolean requiresScore;
	private String boardJson;        // the static description, the same for every game

	// ---------------------------------------------------------------- main

	public static void main(final String[] args) throws Exception
	{
		final LudiiTrace t = new LudiiTrace();
		t.parseArgs(args);
		t.run();
	}

	private void parseArgs(final String[] args)
	{
		for (int i = 0; i < args.length; i++)
		{
			final String a = args[i];
			switch (a)
			{
			case "--game": gameName = args[++i]; break;
			case "--ruleset": rulesetName = args[++i]; break;
			case "--option": options.add(args[++i]); break;
			case "--games": numGames = Integer.parseInt(args[++i]); break;
			case "--seed": seed = Long.parseLong(args[++i]); break;
			case "--max-plies": maxPlies = Integer.parseInt(args[++i]); break;
			case "--out": outPath = args[++i]; break;
			case "--effects":
				final String v = args[++i];
				if (!v.equals("all") && !v.equals("none"))
					usage("--effects takes all or none");
				effects = v.equals("all");
				break;
			case "--ludii-limits": ludiiLimits = true; break;
			case "--stop-at-round-end": stopAtRoundEnd = true; break;
			case "--opening-phases": openingPhases = Integer.parseInt(args[++i]); break;
			case "--info": info = true; break;
			default: usage("unknown argument " + a);
			}
		}
		if (gameName == null)
			usage("--game is required");
	}

	private static void usage(final String msg)
	{
		System.err.println("LudiiTrace: " + msg);
		System.err.println("usage: LudiiTrace --game NAME.lud [--ruleset R] [--option O]... [--games N]"
				+ " [--seed S] [--max-plies P] [--out FILE] [--effects all|none] [--stop-at-round-end]"
				+ " [--opening-phases N] [--ludii-limits] [--info]");
		System.exit(2);
	}

	// ---------------------------------------------------------------- loading

	/** Option settings: the ruleset's (if any), overridden per heading by --option. */
	private List<String> resolveOptions()
	{
		final List<String> result = new ArrayList<>();
		if (rulesetName != null)
		{
			final Game probe = GameLoader.loadGameFromName(gameName);
			Ruleset found = null;
			final List<String> names = new ArrayList<>();
			for (final Ruleset rs : probe.description().rulesets())
			{
				names.add(rs.heading());
				if (rs.heading().equals(rulesetName))
					found = rs;
			}
			if (found == null)
			{
				System.err.println("LudiiTrace: ruleset not found: " + rulesetName + "; known: " + names);
				System.exit(2);
			}
			result.addAll(found.optionSettings());
		}
		for (final String opt : options)
		{
			final String heading = heading(opt);
			result.removeIf(s -> heading(s).equals(heading));
			result.add(opt);
		}
		return result;
	}

	private static String heading(final String optionSetting)
	{
		final int slash = optionSetting.lastIndexOf('/');
		return slash < 0 ? optionSetting : optionSetting.substring(0, slash);
	}

	private void load()
	{
		final List<String> opts = resolveOptions();
		game = GameLoader.loadGameFromName(gameName, opts);
		if (!ludiiLimits)
		{
			game.setMaxTurns(Integer.MAX_VALUE / 8);
			game.setMaxMoveLimit(Integer.MAX_VALUE / 8);
		}
		stacking = game.isStacking();
		requiresScore = game.requiresScore();

		final Container[] containers = game.equipment().containers();
		final int[] from = game.equipment().sitesFrom();
		numSites = 0;
		for (int c = 0; c < containers.length; c++)
			numSites = Math.max(numSites, from[c] + containers[c].numSites());
		siteTypes = new SiteType[numSites];
		for (int c = 0; c < containers.length; c++)
		{
			final SiteType type = (c == 0) ? game.board().defaultSite() : SiteType.Cell;
			for (int s = 0; s < containers[c].numSites(); s++)
				siteTypes[from[c] + s] = type;
		}

		if (info)
		{
			System.err.println("game: " + game.name());
			System.err.println("options used: " + game.getOptions());
			final Ruleset rs = game.getRuleset();
			System.err.println("matching ruleset: " + (rs == null ? "none" : rs.heading()));
			for (final Ruleset r : game.description().rulesets())
				System.err.println("  ruleset: " + r.heading() + " " + r.optionSettings());
			for (final Phase p : game.rules().phases())
				System.err.println("  phase: " + p.name());
			System.err.println("alternating=" + game.isAlternatingMoveGame() + " stacking=" + stacking
					+ " score=" + requiresScore + " stochastic=" + game.isStochasticGame());
		}
	}

	// ---------------------------------------------------------------- running

	private void run() throws Exception
	{
		load();
		final Writer out = new BufferedWriter(outPath == null
				? new OutputStreamWriter(System.out, StandardCharsets.UTF_8)
				: new OutputStreamWriter(new FileOutputStream(outPath), StandardCharsets.UTF_8), 1 << 16);
		final long t0 = System.nanoTime();
		int over = 0, cut = 0, roundEnds = 0;
		long plies = 0;
		for (int g = 0; g < numGames; g++)
		{
			final GameResult r = playOne(g, out);
			if (r.over) over++; else if (r.roundEnd) roundEnds++; else cut++;
			plies += r.plies;
		}
		out.flush();
		if (outPath != null)
			out.close();
		System.err.printf("LudiiTrace: %s: %d games (%d over, %d stopped at round end, %d cut at max plies),"
				+ " %d plies, %.2f s%n",
				gameName, numGames, over, roundEnds, cut, plies, (System.nanoTime() - t0) / 1e9);
	}

	private static final class GameResult
	{
		boolean over;
		boolean roundEnd;
		int plies;
	}

	private GameResult playOne(final int index, final Writer out) throws Exception
	{
		final long gameSeed = seed + index;
		final Random random = new Random(gameSeed);
		final Trial trial = new Trial(game);
		final Context context = new Context(game, trial);
		// Ludii's own RNG (unused by the mancala rules, but seeded for repeatability).
		context.rng().restoreState(new org.apache.commons.rng.core.source64.SplitMix64(gameSeed).saveState());
		game.start(context);

		final StringBuilder sb = new StringBuilder(1 << 16);
		sb.append('{');
		field(sb, "game", gameName).append(',');
		field(sb, "name", game.name()).append(',');
		sb.append("\"ruleset\":");
		str(sb, rulesetName);
		sb.append(",\"ruleset_matched\":");
		{
			// first ruleset whose option settings equal the options used (null if none)
			final Ruleset rs = game.getRuleset();
			str(sb, rs == null ? null : rs.heading());
		}
		sb.append(",\"options\":");
		strList(sb, game.description().gameOptions().allOptionStrings(game.getOptions()));
		sb.append(",\"index\":").append(index);
		sb.append(",\"seed\":").append(gameSeed);
		sb.append(",\"max_plies\":").append(maxPlies);
		sb.append(",\"board\":").append(boardJson(context));
		sb.append(",\"start\":");
		stateJson(sb, context);
		sb.append(",\"plies\":[");

		int ply = 0;
		int proposeOrVoteChosen = 0;
		int proposeOrVoteOffered = 0;
		final List<String> phaseChanges = new ArrayList<>();
		int rounds = 1;
		int prevPhase = context.state().currentPhase(context.state().mover());
		final int firstPhase = prevPhase;
		boolean roundEnded = false;

		while (!trial.over() && ply < maxPlies && !roundEnded)
		{
			final State state = context.state();
			final int mover = state.mover();
			final List<Move> legal = new ArrayList<>();
			for (final Move m : game.moves(context).moves())
				legal.add(m);

			// Random choice, avoiding Propose/Vote unless nothing else is legal.
			final List<Integer> candidates = new ArrayList<>();
			boolean offered = false;
			for (int i = 0; i < legal.size(); i++)
			{
				final Move m = legal.get(i);
				if (m.isPropose() || m.isVote())
					offered = true;
				else
					candidates.add(Integer.valueOf(i));
			}
			if (offered)
				proposeOrVoteOffered++;
			final int chosen;
			if (!candidates.isEmpty())
				chosen = candidates.get(random.nextInt(candidates.size())).intValue();
			else
			{
				chosen = random.nextInt(legal.size());
				proposeOrVoteChosen++;
			}

			if (ply > 0)
				sb.append(',');
			sb.append("{\"ply\":").append(ply);
			sb.append(",\"mover\":").append(mover);
			sb.append(",\"phase\":");
			str(sb, phaseName(state.currentPhase(mover)));
			sb.append(",\"legal\":[");
			for (int i = 0; i < legal.size(); i++)
			{
				if (i > 0)
					sb.append(',');
				moveJson(sb, legal.get(i), context, effects);
			}
			sb.append("],\"chosen\":").append(chosen);

			final Move applied = game.apply(context, legal.get(chosen));
			sb.append(",\"applied\":");
			actionsJson(sb, applied.actions());

			final int nextMover = context.state().mover();
			sb.append(",\"same_mover\":").append(!trial.over() && nextMover == mover);
			sb.append(",\"after\":");
			stateJson(sb, context);
			sb.append('}');

			final int phaseNow = context.state().currentPhase(nextMover);
			if (stopAtRoundEnd)
				for (int p = 1; p <= game.players().count(); p++)
					if (context.state().currentPhase(p) > firstPhase + openingPhases)
						roundEnded = true;
			if (phaseNow != prevPhase)
			{
				phaseChanges.add("{\"ply\":" + ply + ",\"from\":" + quote(phaseName(prevPhase))
						+ ",\"to\":" + quote(phaseName(phaseNow)) + "}");
				if (phaseNow == firstPhase)
					rounds++;
				prevPhase = phaseNow;
			}
			ply++;
		}
		sb.append(']');

		// Outcome.
		sb.append(",\"end\":{\"over\":").append(trial.over());
		sb.append(",\"reason\":");
		if (trial.over())
		{
			final main.Status.EndType et = trial.status().endType();
			str(sb, et == main.Status.EndType.NaturalEnd ? "game_over" : "ludii_" + et.name());
		}
		else if (roundEnded)
			str(sb, "round_end");
		else
			str(sb, "max_plies");
		sb.append(",\"plies\":").append(ply);
		sb.append(",\"winner\":").append(trial.over() ? trial.status().winner() : -1);
		sb.append(",\"status\":");
		str(sb, trial.over() ? trial.status().toString() : null);
		sb.append(",\"ranking\":[");
		final double[] ranking = trial.ranking();
		for (int p = 1; p < ranking.length; p++)
		{
			if (p > 1)
				sb.append(',');
			num(sb, ranking[p]);
		}
		sb.append("],\"phase_changes\":[").append(String.join(",", phaseChanges)).append(']');
		sb.append(",\"rounds_started\":").append(rounds);
		sb.append(",\"propose_or_vote_offered\":").append(proposeOrVoteOffered);
		sb.append(",\"propose_or_vote_chosen\":").append(proposeOrVoteChosen);
		sb.append("}}\n");
		out.write(sb.toString());

		final GameResult r = new GameResult();
		r.over = trial.over();
		r.roundEnd = !r.over && roundEnded;
		r.plies = ply;
		return r;
	}

	private String phaseName(final int phaseIndex)
	{
		final Phase[] phases = game.rules().phases();
		if (phaseIndex < 0 || phaseIndex >= phases.length)
			return String.valueOf(phaseIndex);
		return phases[phaseIndex].name();
	}

	// ---------------------------------------------------------------- board

	private String boardJson(final Context context)
	{
		if (boardJson != null)
			return boardJson;
		final StringBuilder sb = new StringBuilder();
		final Container[] containers = game.equipment().containers();
		final int[] from = game.equipment().sitesFrom();
		sb.append("{\"site_type\":");
		str(sb, game.board().defaultSite().name());
		sb.append(",\"num_sites\":").append(numSites);
		sb.append(",\"players\":").append(game.players().count());
		sb.append(",\"stacking\":").append(stacking);
		sb.append(",\"containers\":[");
		for (int c = 0; c < containers.length; c++)
		{
			if (c > 0)
				sb.append(',');
			sb.append("{\"index\":").append(c).append(',');
			field(sb, "name", containers[c].name());
			sb.append(",\"owner\":").append(containers[c].owner());
			sb.append(",\"first_site\":").append(from[c]);
			sb.append(",\"num_sites\":").append(containers[c].numSites()).append('}');
		}
		sb.append("],\"components\":[");
		for (int i = 1; i < game.equipment().components().length; i++)
		{
			if (i > 1)
				sb.append(',');
			sb.append("{\"id\":").append(i).append(',');
			field(sb, "name", game.equipment().components()[i].name());
			sb.append(",\"owner\":").append(game.equipment().components()[i].owner()).append('}');
		}
		sb.append("],\"sites\":[");
		final List<? extends TopologyElement> elems = game.board().topology()
				.getGraphElements(game.board().defaultSite());
		for (int i = 0; i < elems.size(); i++)
		{
			final TopologyElement e = elems.get(i);
			if (i > 0)
				sb.append(',');
			sb.append("{\"site\":").append(e.index());
			sb.append(",\"row\":").append(e.row());
			sb.append(",\"col\":").append(e.col());
			sb.append(",\"x\":");
			num(sb, e.centroid().getX());
			sb.append(",\"y\":");
			num(sb, e.centroid().getY());
			sb.append(',');
			field(sb, "label", e.label());
			sb.append('}');
		}
		sb.append("],\"regions\":[");
		boolean first = true;
		for (final Regions r : game.equipment().regions())
		{
			if (!first)
				sb.append(',');
			first = false;
			sb.append('{');
			field(sb, "name", r.name());
			sb.append(",\"owner\":").append(r.owner());
			sb.append(",\"sites\":");
			int[] sites;
			try
			{
				sites = r.eval(context);
			}
			catch (final RuntimeException ex)
			{
				sites = new int[0];
			}
			intArray(sb, sites);
			sb.append('}');
		}
		sb.append("],\"maps\":[");
		first = true;
		for (final game.equipment.other.Map m : game.equipment().maps())
		{
			if (!first)
				sb.append(',');
			first = false;
			sb.append('{');
			field(sb, "name", m.name());
			sb.append(",\"entries\":[");
			final TreeMap<Integer, Integer> sorted = new TreeMap<>();
			for (final int k : m.map().keys())
				sorted.put(Integer.valueOf(k), Integer.valueOf(m.map().get(k)));
			boolean f2 = true;
			for (final Map.Entry<Integer, Integer> e : sorted.entrySet())
			{
				if (!f2)
					sb.append(',');
				f2 = false;
				sb.append('[').append(e.getKey()).append(',').append(e.getValue()).append(']');
			}
			sb.append("]}");
		}
		sb.append("],\"tracks\":[");
		first = true;
		for (final Track t : game.board().tracks())
		{
			if (!first)
				sb.append(',');
			first = false;
			sb.append('{');
			field(sb, "name", t.name());
			sb.append(",\"owner\":").append(t.owner());
			sb.append(",\"loop\":").append(t.islooped());
			sb.append(",\"sites\":[");
			for (int i = 0; i < t.elems().length; i++)
			{
				if (i > 0)
					sb.append(',');
				sb.append(t.elems()[i].site);
			}
			sb.append("]}");
		}
		sb.append("]}");
		boardJson = sb.toString();
		return boardJson;
	}

	// ---------------------------------------------------------------- state

	private void stateJson(final StringBuilder sb, final Context context)
	{
		final State state = context.state();
		final int[] cid = game.equipment().containerId();
		sb.append("{\"counts\":[");
		for (int s = 0; s < numSites; s++)
		{
			if (s > 0)
				sb.append(',');
			final ContainerState cs = context.containerState(cid[s]);
			sb.append(stacking ? cs.sizeStack(s, siteTypes[s]) : cs.count(s, siteTypes[s]));
		}
		sb.append(']');
		if (stacking)
		{
			// component ids, bottom (level 0) to top
			sb.append(",\"stacks\":[");
			for (int s = 0; s < numSites; s++)
			{
				if (s > 0)
					sb.append(',');
				final ContainerState cs = context.containerState(cid[s]);
				final int size = cs.sizeStack(s, siteTypes[s]);
				sb.append('[');
				for (int l = 0; l < size; l++)
				{
					if (l > 0)
						sb.append(',');
					sb.append(cs.what(s, l, siteTypes[s]));
				}
				sb.append(']');
			}
			sb.append(']');
		}
		if (requiresScore)
		{
			sb.append(",\"scores\":[");
			for (int p = 1; p <= game.players().count(); p++)
			{
				if (p > 1)
					sb.append(',');
				sb.append(context.score(p));
			}
			sb.append(']');
		}
		sb.append(",\"mover\":").append(state.mover());
		sb.append(",\"next\":").append(state.next());
		sb.append(",\"phase\":[");
		for (int p = 1; p <= game.players().count(); p++)
		{
			if (p > 1)
				sb.append(',');
			str(sb, phaseName(state.currentPhase(p)));
		}
		sb.append(']');
		sb.append(",\"pending\":").append(state.isPending());
		sb.append(",\"vars\":{");
		final TreeMap<String, Integer> vars = new TreeMap<>();
		if (state.getValueMap() != null)
			for (final String k : state.getValueMap().keySet())
				vars.put(k, Integer.valueOf(state.getValueMap().get(k)));
		if (state.temp() != main.Constants.UNDEFINED)
			vars.put("", Integer.valueOf(state.temp()));
		boolean first = true;
		for (final Map.Entry<String, Integer> e : vars.entrySet())
		{
			if (!first)
				sb.append(',');
			first = false;
			str(sb, e.getKey());
			sb.append(':').append(e.getValue());
		}
		sb.append('}');
		final Map<String, FastTIntArrayList> remembered = state.mapRememberingValues();
		if (remembered != null && !remembered.isEmpty())
		{
			sb.append(",\"remembered\":{");
			first = true;
			for (final String k : new TreeMap<>(remembered).keySet())
			{
				if (!first)
					sb.append(',');
				first = false;
				str(sb, k);
				sb.append(':');
				final FastTIntArrayList vals = remembered.get(k);
				final int[] arr = vals.toArray();
				java.util.Arrays.sort(arr);
				intArray(sb, arr);
			}
			sb.append('}');
		}
		sb.append('}');
	}

	// ---------------------------------------------------------------- moves

	private void moveJson(final StringBuilder sb, final Move m, final Context context, final boolean withEffect)
	{
		sb.append("{\"from\":").append(m.from());
		sb.append(",\"to\":").append(m.to());
		sb.append(",\"kind\":");
		str(sb, kind(m));
		sb.append(",\"text\":");
		str(sb, m.toTrialFormat(null));
		if (withEffect)
		{
			final List<Action> actions = m.getActionsWithConsequences(context);
			sb.append(",\"effect\":");
			actionsJson(sb, actions);
			// Tracks on which the first site reached from `from` directly follows `from`.
			sb.append(",\"tracks\":[");
			int firstTo = -1;
			for (final Action a : actions)
			{
				final ActionType t = a.actionType();
				if ((t == ActionType.Move || t == ActionType.MoveN || t == ActionType.StackMove)
						&& a.from() == m.from() && m.from() >= 0)
				{
					firstTo = a.to();
					break;
				}
			}
			boolean first = true;
			if (firstTo >= 0)
				for (final Track tr : game.board().tracks())
				{
					final Track.Elem[] el = tr.elems();
					boolean follows = false;
					for (int i = 0; i < el.length && !follows; i++)
						if (el[i].site == m.from() && el[i].next == firstTo)
							follows = true;
					if (follows)
					{
						if (!first)
							sb.append(',');
						first = false;
						str(sb, tr.name());
					}
				}
			sb.append(']');
		}
		sb.append('}');
	}

	private static String kind(final Move m)
	{
		if (m.isPass()) return "Pass";
		if (m.isPropose()) return "Propose";
		if (m.isVote()) return "Vote";
		if (m.isSwap()) return "Swap";
		if (m.isForfeit()) return "Forfeit";
		final ActionType t = m.actionType();
		return t == null ? "Unknown" : t.name();
	}

	/** Compact summary of actions: "f>t" (with "*n" for a count > 1) for moves, else "Type:fields". */
	private static void actionsJson(final StringBuilder sb, final List<Action> actions)
	{
		sb.append('[');
		boolean first = true;
		for (final Action a : actions)
		{
			if (a.isDecision() && a.actionType() == ActionType.Select)
				continue;
			if (!first)
				sb.append(',');
			first = false;
			str(sb, actionToken(a));
		}
		sb.append(']');
	}

	private static String actionToken(final Action a)
	{
		final ActionType t = a.actionType();
		if (t == ActionType.Move || t == ActionType.MoveN || t == ActionType.StackMove)
		{
			final StringBuilder s = new StringBuilder();
			s.append(a.from()).append('>').append(a.to());
			if (a.count() > 1)
				s.append('*').append(a.count());
			if (t == ActionType.StackMove)
				s.append("(stack)");
			return s.toString();
		}
		String txt = a.toTrialFormat(null);
		if (txt.startsWith("[") && txt.endsWith("]"))
			txt = txt.substring(1, txt.length() - 1);
		return txt.replace("typeFrom=Vertex,", "").replace("typeTo=Vertex,", "")
				.replace("type=Vertex,", "");
	}

	// ---------------------------------------------------------------- JSON helpers

	private static StringBuilder field(final StringBuilder sb, final String key, final String value)
	{
		str(sb, key);
		sb.append(':');
		str(sb, value);
		return sb;
	}

	private static String quote(final String s)
	{
		final StringBuilder sb = new StringBuilder();
		str(sb, s);
		return sb.toString();
	}

	private static void str(final StringBuilder sb, final String s)
	{
		if (s == null)
		{
			sb.append("null");
			return;
		}
		sb.append('"');
		for (int i = 0; i < s.length(); i++)
		{
			final char c = s.charAt(i);
			switch (c)
			{
			case '"': sb.append("\\\""); break;
			case '\\': sb.append("\\\\"); break;
			case '\n': sb.append("\\n"); break;
			case '\r': sb.append("\\r"); break;
			case '\t': sb.append("\\t"); break;
			default:
				if (c < 0x20)
					sb.append(String.format("\\u%04x", Integer.valueOf(c)));
				else
					sb.append(c);
			}
		}
		sb.append('"');
	}

	private static void strList(final StringBuilder sb, final List<String> list)
	{
		sb.append('[');
		if (list != null)
			for (int i = 0; i < list.size(); i++)
			{
				if (i > 0)
					sb.append(',');
				str(sb, list.get(i));
			}
		sb.append(']');
	}

	private static void intArray(final StringBuilder sb, final int[] a)
	{
		sb.append('[');
		for (int i = 0; i < a.length; i++)
		{
			if (i > 0)
				sb.append(',');
			sb.append(a[i]);
		}
		sb.append(']');
	}

	private static void num(final StringBuilder sb, final double d)
	{
		if (Double.isNaN(d) || Double.isInfinite(d))
			sb.append("null");
		else if (d == Math.rint(d) && Math.abs(d) < 1e15)
			sb.append((long) d);
		else
			sb.append(Math.round(d * 1e6) / 1e6);
	}
}
