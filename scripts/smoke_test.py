"""A short check of an installed hexcore (run by scripts/check-wheel.sh and the
release workflow on every platform): every game plays, counts and replays, and
the batched games step. Exits non-zero on the first difference."""
import pickle
import sys

import numpy as np

import hexcore as hc
from hexcore.vector import VecGame

assert "site-packages" in hc.__file__, f"hexcore imported from {hc.__file__}, not an installed copy"
# the published perft counts of seeds/perft/ (Churn side 3) and the README's tour
assert hc.perft(hc.Churn(size=3), 3) == 4728
assert hc.perft(hc.Churn(size=3), 3, unit="action", threads=2) == 4728
for spec in ("churn(size=4)", "wunchunk(size=5)", "wunchunk(size=7,players=3)", "quintun(size=5)"):
    g = hc.load(spec)
    res = hc.random_playouts(g, 20, seed=1, threads=2)
    assert len(res.plies) == 20 and bool(res.finished.all()), spec
    moves = []
    while not g.is_over and len(moves) < 12:
        moves.append(g.legal_moves()[0])
        g.play(moves[-1])
    assert pickle.loads(pickle.dumps(g)) == g and hc.from_json(hc.to_json(g)) == g, spec
    assert g.observation().dtype == np.float32
try:
    hc.Churn(size=3).play("z9")
except hc.NotationError:
    pass
else:
    sys.exit("an unknown cell was accepted")
v = VecGame("churn(size=3)", 8, seed=0)
obs, mask = v.reset()
assert obs.shape[0] == 8 and mask.shape == (8, 20)
for _ in range(5):
    mask = v.step(mask.argmax(axis=1)).action_masks
# the shipped agents come with the wheel and play with NumPy alone
from hexcore import agents  # noqa: E402
from hexcore.match import play_match  # noqa: E402

assert agents.available(), "no shipped agents in the package"
assert play_match("hex(size=5)", ["agent:sims=8", "random"], games=1, seed=0).games == 1
print(f"smoke test passed: hexcore {hc.__version__} from {hc.__file__}")
