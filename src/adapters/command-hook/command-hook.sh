# agent-collab's PreToolUse hook client, run by codex and claude before every shell command as
#   /bin/bash --norc -p -c '<this text>' agent-collab-hook <port> <role> <deadline-seconds>
# with the session's token in AGENT_COLLAB_HOOK_TOKEN and its reply key in AGENT_COLLAB_HOOK_REPLY_KEY. It sends the
# CLI's tool call (stdin, as is) to agent-collab over loopback TCP and prints agent-collab's one-line answer. Wire
# format (protocol.ts):
#   -> "AC-HOOK 1 <token> <role> <n>\n" then exactly <n> bytes of stdin
#   <- one line "<reply key>:<payload>", payload = the hookSpecificOutput JSON to print, or nothing ("no opinion")
# The reply key is never sent: an answer that does not start with it came from whoever holds the port now (say,
# after agent-collab was killed), not from agent-collab, and is denied.
# Both CLIs let a command run when a hook exits non-zero, crashes or times out, so this script FAILS CLOSED: every
# failure prints a deny and exits 0 (the EXIT trap covers the ones not foreseen). Bash built-ins only: an external
# program would cost a fork per command. Comment lines are dropped when the text goes into the command line.
set +o posix 2>/dev/null
LC_ALL=C
answered=

deny() {
  answered=1
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"agent-collab: %s, so the command was denied"}}\n' "$1"
  exit 0
}

trap '[ -n "$answered" ] || deny "the command hook stopped unexpectedly"' EXIT
trap 'deny "the command hook was stopped before agent-collab answered"' TERM HUP INT
trap '' PIPE

[ $# -eq 3 ] || deny "the command hook was started without its port, role and deadline"
port=$1 role=$2 deadline=$3
case $port in '' | *[!0-9]*) deny "the command hook was started without its port, role and deadline" ;; esac
case $deadline in '' | *[!0-9]*) deny "the command hook was started without its port, role and deadline" ;; esac
case $role in '' | *[!a-z]*) deny "the command hook was started without its port, role and deadline" ;; esac
deadline=$((10#$deadline))
((deadline > 0 && 10#$port > 0 && 10#$port < 65536)) || deny "the command hook was started without its port, role and deadline"
token=${AGENT_COLLAB_HOOK_TOKEN-}
case $token in '' | *[!0-9a-zA-Z_-]*) deny "the command hook found no session token in AGENT_COLLAB_HOOK_TOKEN" ;; esac
key=${AGENT_COLLAB_HOOK_REPLY_KEY-}
[[ ${#key} -eq 64 && $key != *[!0-9a-f]* && $key != "$token" ]] || deny "the command hook found no valid reply key in AGENT_COLLAB_HOOK_REPLY_KEY"

# Everything up to EOF (the CLIs send no NUL). read's status is 1 at EOF; above 128 when the deadline passed.
IFS= read -r -d '' -t "$deadline" input
(($? <= 128)) || deny "the command hook's input did not end within $deadline s"

left=$((deadline - SECONDS))
((left > 0)) || deny "the command check got no answer within $deadline s"
{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || deny "cannot reach agent-collab to check the command (nothing answers on port $port)"
# LC_ALL=C: ${#input} counts bytes. One write, so header and payload go out together.
request="AC-HOOK 1 $token $role ${#input}"$'\n'"$input"
printf '%s' "$request" >&3 2>/dev/null
IFS= read -r -t "$left" -u 3 answer
status=$?
((status <= 128)) || deny "the command check got no answer within $deadline s"
((status == 0)) || deny "the command check ended without an answer"

answered=1
[[ $answer == "$key:"* ]] || deny "the answer on port $port did not come from this agent-collab session"
answer=${answer#"$key:"}
if [ -z "$answer" ]; then
  exit 0
elif [[ $answer == '{"hookSpecificOutput":'* ]]; then
  printf '%s\n' "$answer"
  exit 0
fi
deny "the command hook could not read the answer it got"
