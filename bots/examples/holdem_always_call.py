"""Hold'em: always checks or calls, and says so: its `ready` offers its policy, and every
`policy` request is answered with the call's certainty. `arena exploit holdem --bot
'always-call=external:python3 bots/examples/holdem_always_call.py'` measures it as it measures
the built-in always-call, hand for hand."""

from arena_bot import run


def act(view, legal):
    return "call"


def policy(view, legal):
    return {"call": 1.0}


run(act, policy=policy)
