#!/usr/bin/env bash
# Answers every go as kete does when it holds no position: an error and
# bestmove 0000.
while IFS= read -r line; do
  case "$line" in
    ugi) printf 'id name nomove\nugiok\n' ;;
    uci) printf 'id name nomove\nuciok\n' ;;
    isready) printf 'readyok\n' ;;
    go*) printf 'info string error: go: no position to search: the last position command was refused\nbestmove 0000\n' ;;
    quit) exit 0 ;;
  esac
done
