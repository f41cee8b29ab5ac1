// Plays seeded random games of Mangala in slymn80/mangala-online's engine
// (src/engine/engine.ts, TypeScript, MIT) and writes them as kete's
// reference traces, one game a JSON line (see tests/reference.rs).
//
//     node tests/reference/mangala_online.mjs CHECKOUT SEED GAMES OUT.jsonl
//
// CHECKOUT is a checkout of slymn80/mangala-online; the engine is imported
// from there (node must be able to import TypeScript: a Node that strips
// types, or a TypeScript loader such as tsx given with --import). Nothing
// of it is copied here. Game g of the run uses the seed SEED + g.
//
// The engine is driven as its own client drives it (src/client/store/
// gameStore.ts): `getValidMoves` lists the moves, `applyMove` plays one,
// and the set takes the returned board, `nextPlayer` and, when
// `setFinished`, the status "finished". One set is one game; player1
// starts it.
//
// How its board maps onto kete's position token: `pits` has 14 places
// sown in increasing order, 0..5 player1's pits from his left, 6 his
// treasury, 7..12 player2's pits from his left, 13 player2's treasury.
// player1 is kete's South. The token is pits 0..5, 7..12, then 6 and 13,
// then S or N for the player to move.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [checkoutArg, seedArg, gamesArg, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: mangala_online.mjs CHECKOUT SEED GAMES OUT.jsonl");
  process.exit(2);
}
const checkout = path.resolve(checkoutArg);
const file = "src/engine/engine.ts";
const engine = await import(pathToFileURL(path.join(checkout, file)).href);
const commit = execFileSync("git", ["-C", checkout, "rev-parse", "HEAD"], {
  encoding: "utf8",
}).trim();

// A small seeded generator (mulberry32): the same seed, the same game.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function letter(index) {
  if (index <= 5) return String.fromCharCode(65 + index);
  return String.fromCharCode(97 + index - 7);
}

function token(set) {
  const p = set.board.pits;
  const cells = [...p.slice(0, 6), ...p.slice(7, 13), p[6], p[13]];
  return cells.join("-") + "-" + (set.currentPlayer === "player1" ? "S" : "N");
}

const lines = [];
const first = Number(seedArg);
for (let g = 0; g < Number(gamesArg); g++) {
  const seed = first + g;
  const random = rng(seed);
  const game = engine.initializeGame({
    mode: "pvp",
    player1Name: "South",
    player2Name: "North",
    firstPlayer: "player1",
  });
  const record = {
    implementation: `slymn80/mangala-online@${commit} ${file}`,
    game: "mangala",
    seed,
    start: token(game.sets[0]),
    plies: [],
  };
  const end = { over: false, result: null, seeds: null };
  for (let ply = 0; ply < 2000; ply++) {
    const set = game.sets[game.currentSetIndex];
    if (set.status === "finished") break;
    const moves = engine.getValidMoves(set, set.currentPlayer);
    if (moves.length === 0) {
      end.why = "no valid move in an unfinished set";
      break;
    }
    const names = moves.map(letter).sort();
    const name = names[Math.floor(random() * names.length)];
    const result = engine.applyMove(game, moves.find((m) => letter(m) === name));
    if (!result.success) throw new Error(`seed ${seed}: ${name} refused: ${result.message}`);
    set.board = result.board;
    set.currentPlayer = result.nextPlayer;
    if (result.setFinished) {
      set.status = "finished";
      set.winner = result.setWinner;
    }
    record.plies.push({ legal: names, move: name, after: token(set) });
    if (result.setFinished) {
      const p = result.board.pits;
      end.over = true;
      end.result = { player1: "p1win", player2: "p2win", draw: "draw" }[result.setWinner];
      end.seeds = [p[6], p[13]];
      end.why = result.rule;
    }
  }
  record.end = end;
  lines.push(JSON.stringify(record));
}
writeFileSync(out, lines.join("\n") + "\n");
