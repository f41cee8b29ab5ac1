#!/usr/bin/env bash
# Answers every search with a word that is not a move.
while IFS= read -r line; do
  case "$line" in
    ugi) printf 'id name garbage\nugiok\n' ;;
    uci) printf 'id name garbage\nuciok\n' ;;
    isready) printf 'readyok\n' ;;
    go*) printf 'bestmove xyzzy\n' ;;
    quit) exit 0 ;;
  esac
done
