#!/bin/sh
# Calibrates the playing levels of one game: every adjacent pair of the chain
#   random < greedy < first-game < beginner < novice < casual < club < strong < expert < full
# plays a kete-arena match (each opening twice, colours swapped) into
# tournaments/levels/<variant>/<weaker>-<stronger>/. tests/levels.rs reads the
# matches back and checks the Elo compiled into the game (Game::level_elo).
#
# Usage, from the clone after `cargo build --release`:
#   tournaments/levels/run.sh VARIANT [ROUNDS] [CONCURRENCY]
# ROUNDS (default 50) is halved, rounded up, for the pairs played at 0.3 s a
# move. CONCURRENCY (default 2, one game a core) is doubled for the pairs
# below 0.3 s: their levels search to a small depth in a few milliseconds
# and wait out the rest of the move's time, so the cores stay idle. With
# SHORT=1 only those pairs are played: they may share the machine with
# another game's run. KETE_BIN names the folder of kete and kete-arena (default
# target/release); copy them elsewhere first if you rebuild during the run.
set -eu
variant=$1
rounds=${2:-50}
concurrency=${3:-2}
bin=${KETE_BIN:-target/release}
here=tournaments/levels
# Oware and Bao la Kiswahili use the shipped openings. Kalah, En Dodoi and Bao
# la Kujifunza use openings a search scores even: their shipped openings leave
# South so far ahead that two decent players each win with South, which hides
# the difference between them. Togyz Kumalak has no shipped openings and uses
# even ones too.
case $variant in
oware | bao-kiswahili) openings=tournaments/openings/$variant.txt ;;
*) openings=$here/openings/$variant.txt ;;
esac
# The time a move of `strong` and `expert` needs to reach their depths:
# Oware's expert searches to depth 14 and Bao la Kiswahili's to 10; the
# other games' levels stop at depth 8 at most.
case $variant in
oware | bao-kiswahili) deep=0.3 ;;
*) deep=0.1 ;;
esac
long=$(((rounds + 1) / 2))
idle=$((concurrency * 2))
previous=random
for level in greedy first-game beginner novice casual club strong expert full; do
	# Time a move: enough for the stronger level to reach its depth. Levels
	# hold their answer to the time's soft limit, so a move never comes at
	# once; full strength is kete's plain search at 0.3 s a move.
	case $level in
	greedy | first-game | beginner | novice | casual) st=0.05 r=$rounds c=$idle ;;
	club) st=0.1 r=$rounds c=$idle ;;
	strong | expert) st=$deep r=$rounds c=$idle ;;
	full) st=0.3 r=$long c=$concurrency ;;
	esac
	# At 0.3 s a move the searches use their cores: fewer games, one a core.
	if [ "$st" = 0.3 ]; then
		r=$long c=$concurrency
	fi
	if [ "${SHORT:-0}" = 1 ] && [ "$c" = "$concurrency" ]; then
		break
	fi
	out=$here/$variant/$previous-$level
	if [ -f "$out/games.jsonl" ]; then
		echo "$out: already played (remove it to play it again)"
	else
		"$bin/kete-arena" --variant "$variant" --openings "file=$openings" \
			--engine "cmd=$bin/kete" "name=$previous" "option.Level=$previous" \
			--engine "cmd=$bin/kete" "name=$level" "option.Level=$level" \
			--each "st=$st" timemargin=1000 'option.EgtbDir=<empty>' \
			--games 2 --rounds "$r" --concurrency "$c" --quiet --out "$out"
	fi
	previous=$level
done
