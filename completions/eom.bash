# bash completion for eom: subcommands, options and their fixed choices (read from eom's own
# --help, so they never go stale), frame and joint names (read from the ROBOT on the command
# line; NAME= after --q0, --v0, --setpoint, --torque, --limits, --max-velocity and
# --max-acceleration), files otherwise.
# Install: cmake --install puts it in share/bash-completion/completions; or `source` this file.

# names of the frames (kind=frames) or joints (kind=joints) of a URDF, via eom info
_eom_model_names() {
  local eom=$1 robot=$2 kind=$3
  "$eom" info "$robot" --format json 2> /dev/null |
    awk -v kind="\"$kind\":" '$1 == kind { inside = 1; next }
      inside && /^  \]/ { exit }
      inside && $1 == "\"name\":" { gsub(/[",]/, "", $2); print $2 }'
}

# the fixed choices of option OPTION of a subcommand, from the {a,b,c} of its --help line
_eom_choices() {
  local eom=$1 command=$2 option=$3
  "$eom" "$command" --help 2> /dev/null |
    awk -v option="$option" '/^  -/ {
        n = split($1, names, ",")
        for (i = 1; i <= n; i++) if (names[i] == option && match($2, /\{[^}]*\}/)) {
          choices = substr($2, RSTART + 1, RLENGTH - 2)
          gsub(/,/, " ", choices)
          print choices
          exit
        }
      }'
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
  local names="" suffix=""
  case $prev in
    --frames | --frame | --relative-to | --contacts | --only) names=$(_eom_model_names "$eom" "$robot" frames) ;;
    --joints | --lock) names=$(_eom_model_names "$eom" "$robot" joints) ;;
    # NAME=VALUE lists: the joint's name and its '='
    --q0 | --v0 | --setpoint | --torque | --limits | --max-velocity | --max-acceleration)
      names=$(_eom_model_names "$eom" "$robot" joints)
      suffix="="
      ;;
    --output-dir)
      COMPREPLY=($(compgen -d -- "$cur"))
      return
      ;;
    -*)
      # an option of fixed choices: the {a,b,c} its --help line shows (TEXT:{csv,json,ndjson})
      local choices
      choices=$(_eom_choices "$eom" "$command" "$prev")
      if [[ -n $choices ]]; then
        COMPREPLY=($(compgen -W "$choices" -- "$cur"))
        return
      fi
      ;;
  esac
  if [[ -n $names ]]; then
    # comma-separated lists: complete the item after the last comma
    local done_part="" item=$cur
    if [[ $cur == *,* ]]; then
      done_part=${cur%,*},
      item=${cur##*,}
    fi
    COMPREPLY=($(compgen -P "$done_part" -S "$suffix" -W "$names" -- "$item"))
    [[ -n $suffix ]] && compopt -o nospace 2> /dev/null
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
