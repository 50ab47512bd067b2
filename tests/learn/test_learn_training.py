"""Deep Monte-Carlo training: the JAX network is the NumPy one, a short run learns, a run is
deterministic from its seed, and a checkpoint resumes it exactly."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from learn_support import need

np = need("numpy")
need("jax")
need("optax")
need("equinox")

import jax  # noqa: E402

from parlour.games.whot.learned.selfplay import WhotSelfPlay  # noqa: E402
from parlour.learn.dmc import QModel, from_qnet, to_qnet  # noqa: E402
from parlour.learn.qnet import load, save  # noqa: E402
from parlour.learn.trainer import TrainConfig, Trainer  # noqa: E402


def trainer(
    tmp: Path, seed: int = 3, batch: int = 256, max_moves: int = 200, **kw: object
) -> Trainer:
    cfg = TrainConfig(
        game="whot",
        rules="nigerian",
        players=2,
        decisions=2_000_000,
        batch=batch,
        minibatch=256,
        seed=seed,
        max_moves=max_moves,
        out=str(tmp),
        **kw,  # type: ignore[arg-type]
    )
    return Trainer(cfg, WhotSelfPlay(2, "nigerian", batch, seed, max_moves=max_moves))


def test_the_numpy_network_computes_what_the_jax_one_does(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    table = rng.random((57, 20)).astype(np.float32)
    model = QModel(jax.random.PRNGKey(1), 30, 4, table, (48, 24), (16, 8))
    state = rng.normal(size=(7, 30)).astype(np.float32)
    actions = rng.integers(0, 57, (7, 5))
    pair = rng.normal(size=(7, 5, 4)).astype(np.float32)
    rows = np.repeat(np.arange(7), 5)
    want = np.asarray(model(state, rows, actions.reshape(-1), pair.reshape(-1, 4))).reshape(7, 5)
    net = to_qnet(model, {"players": 2})
    assert np.allclose(net.q(state, actions, pair), want, atol=1e-5)
    save(net, tmp_path / "w.npz")
    again = load(tmp_path / "w.npz")
    assert again.meta == {"players": 2}
    assert np.allclose(again.q(state, actions, pair), want, atol=1e-5)
    back = from_qnet(again)
    assert np.allclose(np.asarray(back(state, rows, actions.reshape(-1), pair.reshape(-1, 4))),
                       want.reshape(-1), atol=1e-5)  # fmt: skip


def test_a_short_run_lowers_its_loss(tmp_path: Path) -> None:
    tr = trainer(tmp_path, lr=3e-4)

    def mean_loss_until(updates: int) -> float | None:
        while tr.updates < updates:
            tr.step()
        return tr.take_loss()

    first = mean_loss_until(20)
    mean_loss_until(100)
    last = mean_loss_until(130)
    assert first is not None and last is not None
    assert last < first - 0.01, f"the loss went from {first:.4f} to {last:.4f}"


def test_a_checkpoint_resumes_the_run_exactly(tmp_path: Path) -> None:
    # Games cut at 40 moves: samples, updates and a full queue within a few dozen steps
    a = trainer(tmp_path / "a", max_moves=40)
    for _ in range(40):
        a.step()
    a.save_checkpoint()
    for _ in range(40):
        a.step()
    b = trainer(
        tmp_path / "a", max_moves=40
    )  # a new process would do this: the same settings, resumed
    b.load_checkpoint()
    for _ in range(40):
        b.step()
    assert b.decisions == a.decisions and b.updates == a.updates > 0
    for x, y in zip(a.qnet().arrays().values(), b.qnet().arrays().values(), strict=True):
        assert np.array_equal(x, y)
    # and the same seed from scratch is the same run
    c = trainer(tmp_path / "c", max_moves=40)
    for _ in range(80):
        c.step()
    for x, y in zip(a.qnet().arrays().values(), c.qnet().arrays().values(), strict=True):
        assert np.array_equal(x, y)


def test_a_checkpoint_written_before_rows_were_kept_in_place_resumes_the_same_run(
    tmp_path: Path,
) -> None:
    """Checkpoints of earlier runs kept each waiting sample as its own copied row, and the
    queue as rows: such a checkpoint loads, and the run goes on as it would have."""
    a = trainer(tmp_path / "a", max_moves=40)
    for _ in range(40):
        a.step()
    a.save_checkpoint()
    path = a.checkpoint_path()
    data = pickle.loads(path.read_bytes())
    # the earlier form: the rows not yet handed on, copied out; the queue's rows, copied out
    data["pending"] = [
        {k: v[c["left"]] for k, v in c.items() if k != "left"} for c in data["pending"]
    ]
    data["queue"] = [
        {
            **{k: v[q["idx"]] for k, v in q["src"].items() if k != "left"},
            "target": q["target"],
        }
        for q in data["queue"]
    ]
    assert data["queue"] and all("src" not in q for q in data["queue"])
    path.write_bytes(pickle.dumps(data))
    for _ in range(40):
        a.step()
    b = trainer(tmp_path / "a", max_moves=40)
    b.load_checkpoint()
    for _ in range(40):
        b.step()
    assert b.updates == a.updates > 0
    for x, y in zip(a.qnet().arrays().values(), b.qnet().arrays().values(), strict=True):
        assert np.array_equal(x, y)


def test_a_checkpoint_of_other_settings_is_refused(tmp_path: Path) -> None:
    a = trainer(tmp_path)
    a.step()
    a.save_checkpoint()
    b = trainer(tmp_path, lr=0.5)
    with pytest.raises(ValueError, match=r"other settings \(lr\)"):
        b.load_checkpoint()
