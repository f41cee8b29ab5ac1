/**
 * Plays seeded random games of andifathulms/congklak (Congklak and Dakon
 * in TypeScript, a Next.js app whose engine is `lib/engine/`; no licence
 * stated) and writes them as kete's reference traces, one game a JSON line
 * (see tests/reference.rs).
 *
 *     tsx tests/reference/andifathulms_congklak.ts CHECKOUT SEED GAMES OUT.jsonl \
 *         [--ruleset umum]
 *
 * CHECKOUT is a checkout of andifathulms/congklak; its `lib/engine/apply.ts`
 * (createGame, currentLegalMoves, applyMove) is imported from there and
 * nothing of it is copied here. `--ruleset` names one of its packs,
 * `data/rulesets/NAME.json`: `umum` (its default, "Congklak Umum", also
 * called dakon) plays one round with relays from either row, a repeat turn
 * from the own store, the capture across from an own empty hole, and ends
 * when the player to move has no seeds, each player taking his row.
 * `tsx` is the TypeScript runner of npm (any recent one). Game g of the run
 * uses the seed SEED + g (a small xorshift generator of its own draws the
 * moves, so that one game can be played again alone).
 *
 * How its board is turned into kete's position token: the board is 16
 * places sown in increasing order, 0..6 player A's holes, 7 A's store,
 * 8..14 B's holes, 15 B's store (it draws the sowing clockwise with each
 * store at its owner's left; the order of the places is the same game that
 * kete sows anticlockwise with each store at its owner's right, seen from
 * the other side). So A's holes are kete's South pits A..G in sowing order,
 * B's North's a..g, and the stores are places 7 and 15. Player A is South
 * and moves first. A move is the index of a hole; its legal moves are
 * `currentLegalMoves`.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

function usage(): never {
  console.error('usage: tsx andifathulms_congklak.ts CHECKOUT SEED GAMES OUT.jsonl [--ruleset umum]')
  process.exit(2)
}

/** xorshift32, seeded; never 0. */
function rng(seed: number): () => number {
  let x = (seed * 2654435761) >>> 0 || 1
  return () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x
  }
}

function letter(index: number): string {
  return index < 7
    ? String.fromCharCode(65 + index)
    : String.fromCharCode(97 + index - 8)
}

function token(state: { board: Int8Array; toMove: number }): string {
  const b = Array.from(state.board)
  const cells = [...b.slice(0, 7), ...b.slice(8, 15), b[7], b[15]]
  return cells.join('-') + '-' + (state.toMove === 0 ? 'S' : 'N')
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  let rulesetName = 'umum'
  const positional: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--ruleset') rulesetName = args[++i] ?? usage()
    else positional.push(args[i])
  }
  if (positional.length !== 4) usage()
  const [checkoutArg, seedArg, gamesArg, out] = positional
  const checkout = resolve(checkoutArg)
  const firstSeed = Number(seedArg)
  const games = Number(gamesArg)
  const maxPlies = 2000

  const commit = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD']).toString().trim()
  const rulesetFile = `data/rulesets/${rulesetName}.json`
  const ruleset = JSON.parse(readFileSync(resolve(checkout, rulesetFile), 'utf8'))
  const engine = await import(pathToFileURL(resolve(checkout, 'lib/engine/apply.ts')).href)
  const implementation = `andifathulms/congklak@${commit} lib/engine/apply.ts ${rulesetFile}`

  const lines: string[] = []
  for (let g = 0; g < games; g++) {
    const seed = firstSeed + g
    const next = rng(seed)
    let state = engine.createGame(0)
    const record: Record<string, unknown> = {
      implementation,
      game: 'dakon',
      seed,
      start: token(state),
    }
    const plies: unknown[] = []
    const end: Record<string, unknown> = { over: false, result: null, seeds: null }
    for (let p = 0; p < maxPlies; p++) {
      const moves: number[] = engine.currentLegalMoves(state)
      if (moves.length === 0) {
        end.why = 'no legal move, game not ended'
        break
      }
      const names = moves.map(letter).sort()
      const name = names[next() % names.length]
      const hole = moves[moves.map(letter).indexOf(name)]
      state = engine.applyMove(state, hole, ruleset).state
      plies.push({ legal: names, move: name, after: token(state) })
      if (state.status === 'selesai') {
        end.over = true
        end.result = state.hasil === 'a' ? 'p1win' : state.hasil === 'b' ? 'p2win' : 'draw'
        end.seeds = [state.board[7], state.board[15]]
        end.why = `ended (its terminal ${ruleset.options.terminal}, final sweep ${ruleset.options.finalSweep})`
        break
      }
    }
    record.plies = plies
    record.end = end
    lines.push(JSON.stringify(record))
  }
  writeFileSync(out, lines.join('\n') + '\n')
}

main()
