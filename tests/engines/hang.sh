#!/usr/bin/env bash
# A correct handshake, then silence on `go`: a hang.
while IFS= read -r line; do
  case "$line" in
    ugi) printf 'id name hang\nugiok\n' ;;
    uci) printf 'id name hang\nuciok\n' ;;
    isready) printf 'readyok\n' ;;
    quit) exit 0 ;;
  esac
done
