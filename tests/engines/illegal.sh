#!/usr/bin/env bash
# Always plays pit A: legal while it has seeds, illegal once it is empty.
while IFS= read -r line; do
  case "$line" in
    ugi) printf 'id name illegal\nugiok\n' ;;
    uci) printf 'id name illegal\nuciok\n' ;;
    isready) printf 'readyok\n' ;;
    go*) printf 'info depth 1 score cp 0\nbestmove A\n' ;;
    quit) exit 0 ;;
  esac
done
