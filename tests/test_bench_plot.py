"""dmlc bench --plot FILE.png: one panel per operator with every implementation the run
found, the single-threaded copy and the copy wall marked; without matplotlib, a message
naming the extra before anything is timed."""
import sys

import pytest

from dmlc import bench, cli

ROWS = [  # (group, label, implementation, seconds, bytes read + written)
    ("pad", "float32 (8, 8) p1", "memcpy", 1e-3, 4_000_000),
    ("pad", "float32 (8, 8) p1", "torch.copy_", 5e-4, 4_000_000),
    ("pad", "float32 (8, 8) p1", "dmlc", 1e-3, 4_000_000),
    ("pad", "float32 (8, 8) p1", "numpy", 4e-3, 4_000_000),
    ("pad", "float32 (8, 8) p2", "memcpy", 1e-3, 4_000_000),
    ("pad", "float32 (8, 8) p2", "dmlc", 2e-3, 4_000_000),
    ("tile", "float32 (4,) x2", "memcpy", 1e-3, 2_000_000),
    ("tile", "float32 (4,) x2", "dmlc", 1e-3, 2_000_000),
    ("tile", "float32 (4,) x2", "onnxruntime", 2e-3, 2_000_000),
]


def test_figure_has_a_panel_per_operator_and_every_implementation():
    pytest.importorskip("matplotlib")
    from dmlc.bench import plot
    fig = plot.figure(ROWS, title="t")
    panels = [ax for ax in fig.axes if ax.get_title(loc="left")]
    assert [ax.get_title(loc="left") for ax in panels] == ["pad", "tile"]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert set(legend) == {"dmlc", "numpy", "onnxruntime", "1-thread copy (memcpy)",
                           "copy wall (torch.copy_, all threads)"}
    # GB/s: dmlc's pad p1 bar is 4 MB / 1 ms = 4 GB/s; the memcpy mark sits at 4, the wall at 8.
    pad = panels[0]
    assert max(bar.get_width() for bar in pad.patches) == pytest.approx(4.0)
    marks = sorted(seg[0][0] for coll in pad.collections for seg in coll.get_segments())
    assert marks == pytest.approx([4.0, 4.0, 8.0])  # memcpy of p1 and p2, torch.copy_ of p1
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_figure_refuses_no_results():
    pytest.importorskip("matplotlib")
    from dmlc.bench import plot
    with pytest.raises(ValueError, match="no benchmark results to plot"):
        plot.figure([])


def test_plot_without_matplotlib_names_the_extra_before_timing(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    monkeypatch.setattr(bench, "run", lambda *a, **k: pytest.fail("the benchmark ran"))
    out = tmp_path / "b.png"
    assert cli.main(["bench", "--quick", "--filter", "small_tile", "--plot", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == ('dmlc bench: --plot needs matplotlib, which is not installed: pip install "dmlc[plot]" '
                           '(or pip install matplotlib)')
    assert not out.exists()


def test_bench_plot_writes_a_png_of_every_peer(monkeypatch, capsys, tmp_path):
    """A real (one-workload) run: the PNG is written and the figure holds every
    implementation the table printed."""
    pytest.importorskip("matplotlib")
    from dmlc.bench import plot
    seen = {}
    real_figure = plot.figure

    def recording_figure(rows, title=None):
        seen["rows"], seen["fig"] = rows, real_figure(rows, title)
        return seen["fig"]
    monkeypatch.setattr(plot, "figure", recording_figure)
    out = tmp_path / "bench.png"
    assert cli.main(["bench", "--quick", "--filter", "small_tile", "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    captured = capsys.readouterr()
    assert f"plot written to {out}" in captured.err
    names = {r[2] for r in seen["rows"]}
    assert {"dmlc", "memcpy"} <= names
    legend = {t.get_text() for t in seen["fig"].legends[0].get_texts()}
    assert names - set(bench.BASELINES) <= legend
    assert "1-thread copy (memcpy)" in legend
