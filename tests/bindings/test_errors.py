"""The exception classes (defined once, in the extension) and the one error
path from Rust: class relationships, ``.reason``, pickling, and a Ctrl-C
that arrives while an exception is built (issue 21.3).

The SIGINT tests run a child interpreter that sets the SIGINT handler itself
(``default_int_handler``), so they also work when the suite runs as a
background job, whose children inherit an ignored SIGINT.
"""
from __future__ import annotations

import pickle
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import hexcore as hc
import hexcore.errors
from hexcore import _core

NAMES = ["HexcoreError", "IllegalMoveError", "NotationError", "GameOverError", "TooManyMovesError"]


def test_classes_are_defined_once_in_the_extension():
    for name in NAMES:
        cls = getattr(_core, name)
        assert getattr(hexcore.errors, name) is cls
        assert getattr(hc, name) is cls
        assert cls.__module__ == "hexcore.errors" and cls.__name__ == name
    assert sorted(hexcore.errors.__all__) == sorted(NAMES)


def test_class_relationships():
    assert issubclass(hc.HexcoreError, Exception) and not issubclass(hc.HexcoreError, ValueError)
    assert hc.IllegalMoveError.__bases__ == (hc.HexcoreError, ValueError)
    assert hc.NotationError.__bases__ == (hc.IllegalMoveError,)
    assert hc.GameOverError.__bases__ == (hc.IllegalMoveError,)
    assert hc.TooManyMovesError.__bases__ == (hc.HexcoreError,)
    assert not issubclass(hc.TooManyMovesError, ValueError)


def test_constructor_and_reason():
    e = hc.IllegalMoveError("no such move", "occupied")
    assert str(e) == "no such move" and e.args == ("no such move",) and e.reason == "occupied"
    assert hc.IllegalMoveError("x").reason == "illegal_action"
    assert hc.IllegalMoveError("x", None).reason == "illegal_action"
    assert hc.NotationError(message="x", reason="syntax").reason == "syntax"
    assert hc.GameOverError("over", "game_over").reason == "game_over"
    assert hc.TooManyMovesError("many").reason == "too_many_moves"
    assert str(hc.HexcoreError("plain")) == "plain"
    class Mine(hc.IllegalMoveError):
        def __init__(self, message: str) -> None:
            super().__init__(message, "occupied")

    assert Mine("m").reason == "occupied" and str(Mine("m")) == "m" and isinstance(Mine("m"), ValueError)
    e = hc.IllegalMoveError("a")
    hc.IllegalMoveError.__init__(e, "b", "balance")
    assert (str(e), e.reason) == ("b", "balance")
    with pytest.raises(TypeError):
        hc.IllegalMoveError()
    with pytest.raises(TypeError):
        hc.IllegalMoveError("x", "occupied", "extra")
    with pytest.raises(TypeError):
        hc.IllegalMoveError("x", colour=3)


def test_raised_errors_carry_their_reason_and_pickle():
    g = hc.Churn(size=3)
    caught = []
    for call in (lambda: g.play("zz"), lambda: g.apply_action(-1), lambda: g.play("c3,c3")):
        with pytest.raises(hc.IllegalMoveError) as err:
            call()
        caught.append(err.value)
    w = hc.Wunchunk(size=8, start="open", balance="none")
    with pytest.raises(hc.TooManyMovesError) as many:
        w.legal_moves()
    caught.append(many.value)
    for e in caught:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e) and back.reason == e.reason
    assert type(caught[0]) is hc.NotationError and caught[0].reason in ("syntax", "unknown_cell")
    assert caught[1].reason == "action_out_of_range"


WIDE = 2**70  # wider than 64 bits: messages show it as given, not saturated


def _finished_churn() -> hc.Churn:
    g = hc.Churn(size=2, pie=False)
    while not g.is_over:
        g.apply_action(int(g.legal_actions()[0]))
    return g


def _mid_turn_wunchunk() -> hc.Wunchunk:
    g = hc.Wunchunk(size=5)
    for _ in range(20):
        h = g.copy()
        h.apply_action(int(h.legal_actions()[0]))
        if h.pending_actions:
            return h
        g.play(g.legal_moves()[0])
    raise AssertionError("no Wunchunk action leaves a turn in progress")


def _negative_priors(obs, masks):
    return -np.ones(masks.shape), np.zeros((len(masks), 2))


def _nan_values(obs, masks):
    return np.ones(masks.shape), np.full((len(masks), 2), np.nan)


def _error_cases():
    """(what, call, class, message) for one error of each family of core errors."""
    from hexcore.search import batched_search
    from hexcore.vector import VecGame

    churn3, over, mid = hc.Churn(size=3), _finished_churn(), _mid_turn_wunchunk()
    v = VecGame("churn(size=3)", 2)
    w = VecGame("wunchunk(size=5)", 1)
    return [
        # vector::BatchError
        ("batch misfit", lambda: VecGame([churn3, hc.Churn(size=4)]), ValueError,
         "env 1 (churn(size=4)) does not fit env 0 (churn(size=3)): observations [4, 7, 7] vs [4, 5, 5], "
         "38 vs 20 actions, 2 vs 2 players; envs of one batch need the same observation shape, number of "
         "actions and number of players"),
        ("finished start", lambda: VecGame([over]), ValueError,
         f"env 0: the start position ({over.spec}) is already over"),
        ("mid-turn set_state", lambda: w.set_state(0, mid), ValueError,
         f"env 0: the position ({mid.spec}) is in the middle of a turn; finish or undo it"),
        # vector::StepError
        ("sample buffer", lambda: v._v.sample_actions(np.zeros(3, np.int64)), ValueError,
         "action buffer holds 3 values, expected 2"),
        # OptionsError from a batch, with a wide int
        ("autoplay seat", lambda: setattr(v._v, "autoplay", 3), ValueError, "player must be a seat 1..2, got 3"),
        ("wide autoplay seat", lambda: setattr(v._v, "autoplay", -WIDE), ValueError,
         f"player must be a seat 1..2, got {-WIDE}"),
        # search::BatchError: Invalid (OptionsError) and Output (OutputError)
        ("batched option", lambda: batched_search([churn3], _negative_priors, 1, leaves_per_tree=0), ValueError,
         "leaves_per_tree must be between 1 and 4096, got 0"),
        ("wide batched option", lambda: batched_search([churn3], _negative_priors, 1, leaves_per_tree=WIDE),
         ValueError, f"leaves_per_tree must be between 1 and 4096, got {WIDE}"),
        ("negative max_considered", lambda: batched_search([churn3], _negative_priors, 1, max_considered=-5),
         ValueError, "max_considered must be between 1 and 9223372036854775807, got -5"),
        ("wide simulations", lambda: batched_search([churn3], _negative_priors, WIDE), ValueError,
         f"simulations must be between 1 and {2**30}, got {WIDE}"),
        ("negative priors", lambda: batched_search([churn3], _negative_priors, 2), ValueError,
         "evaluator priors must be >= 0"),
        ("NaN values", lambda: batched_search([churn3], _nan_values, 2), ValueError,
         "evaluator values must be finite (got NaN or infinity)"),
        # OptionsError from limits.rs, with wide ints
        ("wide threads", lambda: _core.check_threads(WIDE), ValueError,
         f"threads must be between 1 and {hc.MAX_THREADS}, got {WIDE}"),
        ("wide depth", lambda: hc.perft(churn3, WIDE), ValueError,
         f"depth must be between 0 and {hc.MAX_DEPTH}, got {WIDE}"),
        ("wide to_move", lambda: hc.Churn.from_position({}, to_move=WIDE, size=3), ValueError,
         f"to_move must be 1 or 2, got {WIDE}"),
        # a set-up position's values, checked once, in the games' from_cells
        ("wide Y to_move", lambda: hc.Y.from_position({}, to_move=-WIDE, size=3), ValueError,
         f"to_move must be 1 or 2, got {-WIDE}"),
        ("hex cell value", lambda: hc.Hex.from_position({"a1": 5}, size=3), ValueError,
         "position: cell value 5 is not 0 (empty), 1 (x) or 2 (o)"),
        ("wunchunk cell value", lambda: hc.Wunchunk.from_position({"a1": 3}, size=5), ValueError,
         "position: cell value 3 is not a colour 1..2 (or 0 for empty)"),
        ("wide wunchunk to_move", lambda: hc.Wunchunk.from_position({}, to_move=WIDE, size=5), ValueError,
         f"to_move must be in 1..2, got {WIDE}"),
        ("wide colour1_turns", lambda: hc.Wunchunk.from_position({}, colour1_turns=-WIDE, size=5), ValueError,
         f"colour1_turns must be a non-negative int, got {-WIDE}"),
        ("wide passes", lambda: hc.Wunchunk.from_position({}, passes=WIDE, size=5), ValueError,
         f"passes must be in 0..1, got {WIDE}"),
        ("wide cell index", lambda: churn3.board.label(-WIDE), IndexError,
         f"cell index {-WIDE} out of range 0..19"),
        # Quintun's board size (OptionsError) and record reader (MoveError, reason "syntax")
        ("quintun size", lambda: hc.Quintun(size=11), ValueError, "size must be an integer from 4 to 10, got 11"),
        ("quintun record", lambda: hc.Quintun.replay("1. j4 j4\nfoo bar"), hc.NotationError,
         "not a record line (a move number, then one or two moves): \"foo bar\""),
    ]


def test_each_family_of_core_errors_reaches_python_as_one_class_and_message():
    for what, call, cls, message in _error_cases():
        with pytest.raises(Exception) as err:
            call()
        assert type(err.value) is cls, (what, type(err.value), err.value)
        assert str(err.value) == message, (what, str(err.value))
    with pytest.raises(hc.NotationError) as err:
        hc.Quintun.replay("1. j4 j4\nfoo bar")
    assert err.value.reason == "syntax"


HANDLER = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"

# Calls that raise one of hexcore's exceptions, fast, over and over.
RAISING = {
    "apply_action": ("g = hc.Churn(size=3)", "g.apply_action(-1)"),
    "play": ("g = hc.Churn(size=3)", "g.play('zz')"),
    "vec_step": ("from hexcore.vector import VecGame\nimport numpy as np\n"
                 "v = VecGame('churn(size=3)', 2)\nbad = np.array([-1, -1])", "v.step(bad)"),
    "legal_moves": ("g = hc.Wunchunk(size=7, start='open', balance='none')", "g.legal_moves()"),
}


def _interrupt_loop(setup: str, call: str, catch: str) -> tuple[int, str]:
    code = HANDLER + textwrap.dedent(f"""
        import hexcore as hc
        {{setup}}
        print('ready', flush=True)
        while True:
            try:
                {call}
            except {catch}:
                pass
    """).replace("{setup}", setup)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.strip() == "ready", line + (p.stderr.read() if p.stderr else "")
        time.sleep(0.3)
        # A second and third signal in case the first one were lost (the
        # test fails either way: the loop must end on the first).
        p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
            time.sleep(1)
            p.send_signal(signal.SIGINT)
            return -999, "the loop ignored a SIGINT"
        return p.returncode, p.communicate(timeout=10)[1]
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("name", sorted(RAISING))
def test_ctrl_c_while_errors_are_built_is_a_keyboard_interrupt(name):
    # Issue 21.3: a loop that catches hc.HexcoreError died with ValueError
    # in 16 of 24 runs after a SIGINT (the exception was built by Python
    # code, whose KeyboardInterrupt was swallowed into a ValueError).
    setup, call = RAISING[name]
    for _ in range(3):
        rc, err = _interrupt_loop(setup, call, "hc.HexcoreError")
        last = err.strip().splitlines()[-1] if err.strip() else err
        assert last.startswith("KeyboardInterrupt"), err[-2000:]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_is_not_swallowed_by_a_loop_catching_value_error():
    # Catching ValueError (IllegalMoveError is one) ignored three SIGINTs.
    setup, call = RAISING["apply_action"]
    for _ in range(3):
        rc, err = _interrupt_loop(setup, call, "ValueError")
        assert rc != -999, err
        assert err.strip().splitlines()[-1].startswith("KeyboardInterrupt"), err[-2000:]
