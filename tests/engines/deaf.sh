#!/usr/bin/env bash
# Plays as the kete binary given as $1 with Ponder on, but never passes on
# `stop`: a ponder search it was told to drop goes on for ever.
kete="$1"
{
  while IFS= read -r line; do
    case "$line" in
      stop) ;;
      *) printf '%s\n' "$line" ;;
    esac
  done
} | "$kete" -o Ponder=true
