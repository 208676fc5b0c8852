# bash completion for eom: subcommands and options (read from eom's own --help, so they never go
# stale), frame and joint names (read from the ROBOT on the command line), files otherwise.
# Install: cmake --install puts it in share/bash-completion/completions; or `source` this file.

# names of the frames (kind=frames) or joints (kind=joints) of a URDF, via eom info
_eom_model_names() {
  local eom=$1 robot=$2 kind=$3
  "$eom" info "$robot" --format json 2> /dev/null |
    awk -v kind="\"$kind\":" '$1 == kind { inside = 1; next }
      inside && /^  \]/ { exit }
      inside && $1 == "\"name\":" { gsub(/[",]/, "", $2); print $2 }'
}

_eom() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local eom=${COMP_WORDS[0]} command="" robot="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    if [[ -z $command ]]; then
      command=$word
    elif [[ -z $robot ]]; then
      robot=$word  # every subcommand that takes a ROBOT takes it first
    fi
  done
  if [[ -z $command ]]; then
    COMPREPLY=($(compgen -W "$("$eom" --help 2> /dev/null |
      awk '/^Subcommands:/ { s = 1; next } s && /^  [a-z]/ { print $1 }')" -- "$cur"))
    return
  fi
  local names=""
  case $prev in
    --frames | --frame | --relative-to | --contacts) names=$(_eom_model_names "$eom" "$robot" frames) ;;
    --joints | --lock) names=$(_eom_model_names "$eom" "$robot" joints) ;;
    --format | --from)
      COMPREPLY=($(compgen -W "csv json ndjson" -- "$cur"))
      return
      ;;
    --output-dir)
      COMPREPLY=($(compgen -d -- "$cur"))
      return
      ;;
  esac
  if [[ -n $names ]]; then
    # comma-separated lists: complete the item after the last comma
    local done_part="" item=$cur
    if [[ $cur == *,* ]]; then
      done_part=${cur%,*},
      item=${cur##*,}
    fi
    COMPREPLY=($(compgen -P "$done_part" -W "$names" -- "$item"))
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("$eom" "$command" --help 2> /dev/null |
      grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' | tr -d ' ,' | sort -u)" -- "$cur"))
    return
  fi
  compopt -o filenames 2> /dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _eom eom
