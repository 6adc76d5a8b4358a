"""The Learn view, driven offscreen: every lesson with no files loaded, 'use my files', experiments in a worker."""

from __future__ import annotations

import csv
import json
import threading
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
from gui_helpers import running_threads
from PySide6.QtCore import Qt

from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import SignatureParams
from lshdesk.core.teaching import lessons as t
from lshdesk.gui.learn.colours import SHARED_BUCKET

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DEMO = json.loads((FIXTURES / "article_demo.json").read_text(encoding="utf-8"))
CONFIGS = {c["name"]: c for c in DEMO["configurations"]}


def plain_words(text: str) -> set[str]:
    return set(text.lower().rstrip(".").split())


def reference_signature(words: set[str], k: int = 16, seed: int = 12345) -> list[int]:
    """The entry's reference signature in plain Python (FNV-1a over UTF-16, xorshift32, mod 4294967311)."""
    s, fns = seed, []
    for _ in range(2 * k):
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        fns.append(s)

    def fnv(w: str) -> int:
        h = 0x811C9DC5
        for c in w.encode("utf-16-le")[::2]:  # ASCII words: one code unit per character
            h = ((h ^ c) * 0x01000193) & 0xFFFFFFFF
        return h

    return [
        min(((fns[2 * i] % 4294967290 + 1) * fnv(w) + fns[2 * i + 1] % 4294967290) % 4294967311 for w in words)
        for i in range(k)
    ]


# --- lesson 1 -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["preset", "fixed_random_toggles", "s1_full_universe"])
def test_lesson1_clicks_tokens_and_runs_like_the_article(view, qtbot, name):
    page = view.demo
    view.show_page(page)
    cfg = CONFIGS[name]
    for click in cfg["toggles"]:
        qtbot.mouseClick(page.chips[click["set"]][click["token"]], Qt.MouseButton.LeftButton)
    sets = [set(s) for s in cfg["sets"]]
    for i, row in enumerate(page.chips):
        assert {tok for tok, chip in row.items() if chip.isChecked()} == sets[i]
    a, b = sets[0], sets[1]
    assert page.jaccard_values()[(0, 1)] == pytest.approx(len(a & b) / len(a | b))
    assert f"= {len(a & b)}/{len(a | b)} = " in page.jaccard_label.text()
    assert page.table.isHidden()
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert page.table.isVisible()
    shared = {(m, int(b["key"].split(":")[0][1:])) for b in cfg["shown_buckets"] for m in b["members"]}
    for i, keys in enumerate(cfg["band_keys"]):
        for band, key in enumerate(keys):
            item = page.table.item(i, band)
            assert item.text() == key.split(":")[1].replace(",", "\n")
            assert (item.background().color().name() == SHARED_BUCKET.color().name()) == ((i, band) in shared)
    for b in cfg["shown_buckets"]:
        assert b["label"] in page.buckets_label.text()
    assert page.status.text() == cfg["status_message"]


def test_lesson1_toggle_hides_the_old_buckets_and_reset_restores(view, qtbot):
    page = view.demo
    view.show_page(page)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.chips[1]["bird"], Qt.MouseButton.LeftButton)
    assert page.table.isHidden() and "Run" in page.status.text()
    assert page.jaccard_values()[(0, 1)] == pytest.approx(4 / 7)  # {cat, dog, fish, bird} of 7 words
    assert "4/7 = <b>0.57</b>" in page.jaccard_label.text()
    qtbot.mouseClick(page.reset_button, Qt.MouseButton.LeftButton)
    assert page.jaccard_values()[(0, 1)] == pytest.approx(3 / 7)


# --- lesson 2 -------------------------------------------------------------------------------------------------------
def test_lesson2_signatures_estimate_and_jaccard(view, qtbot):
    page = view.signatures
    view.show_page(page)
    words = [plain_words(s) for s in t.SENTENCES]
    assert page.sigs.tolist() == [reference_signature(words[0]), reference_signature(words[1])]
    assert np.array_equal(page.grid.model.sigs, page.sigs)
    m = sum(x == y for x, y in zip(*page.sigs.tolist()))
    assert page.matches == m and f"{m} of 16" in page.figures.text()
    j = len(words[0] & words[1]) / len(words[0] | words[1])
    assert page.jaccard == pytest.approx(j) and f"{j:.3f}" in page.figures.text()
    page.pick(0, 6)
    assert page.estimate == 1.0 and page.jaccard == 1.0
    page.pick(2, 5)
    page.seed.setValue(777)
    params = SignatureParams(t.WORDS, "article", 16, 777)
    assert np.array_equal(page.sigs, sign_texts([t.SENTENCES[2], t.SENTENCES[5]], params))
    assert page.sigs.tolist() == [reference_signature(words[2], seed=777), reference_signature(words[5], seed=777)]


# --- lesson 3 -------------------------------------------------------------------------------------------------------
def test_lesson3_schemes_against_the_similar_pairs(view, qtbot):
    page = view.banding
    view.show_page(page)
    assert page.radios["balanced"].isChecked()
    assert page.candidate_pairs() == set(t.SIMILAR_PAIRS)
    verdicts = [page.pairs.item(r, 4).text() for r in range(page.pairs.rowCount())]
    assert verdicts.count("found") == 3 and "false positive" not in verdicts and page.pairs.rowCount() == 28
    sigs = [reference_signature(plain_words(s)) for s in t.SENTENCES]
    for name, (b, r) in {"strict": (1, 16), "loose": (16, 1)}.items():
        qtbot.mouseClick(page.radios[name], Qt.MouseButton.LeftButton)
        brute = {
            (i, j)
            for i in range(8)
            for j in range(i + 1, 8)
            if any(sigs[i][x * r : (x + 1) * r] == sigs[j][x * r : (x + 1) * r] for x in range(b))
        }
        assert page.candidate_pairs() == brute
        assert page.grid.model.banding.bands == b
    assert (0, 6) in page.candidate_pairs() and len(page.candidate_pairs()) > 5  # loose flags unrelated pairs


# --- lesson 4 -------------------------------------------------------------------------------------------------------
def test_lesson4_threshold_label_follows_the_sliders(view, qtbot):
    page = view.scurve
    view.show_page(page)
    page.b_slider.setValue(7)
    page.r_slider.setValue(3)
    assert (
        f"(1/b)^(1/r) = {(1 / 7) ** (1 / 3):.3f}, steepest at {(2 / 20) ** (1 / 3):.3f}" in page.threshold_label.text()
    )
    assert page.line.value() == pytest.approx((1 / 7) ** (1 / 3))
    page.r_slider.setFocus()
    qtbot.keyClick(page.r_slider, Qt.Key.Key_Right)  # the slider keeps its arrow keys (the lesson's step keys wait)
    assert page.r_slider.value() == 4
    assert f"(1/b)^(1/r) = {(1 / 7) ** (1 / 4):.3f}" in page.threshold_label.text()
    x, y = page.curve.getData()
    assert y[200] == pytest.approx(1 - (1 - 0.5**4) ** 7)  # x[200] = 0.5
    assert len(page.points.data) == 28


# --- lesson 5 -------------------------------------------------------------------------------------------------------
def test_lesson5_step_through_to_the_end(view, qtbot):
    page = view.step
    view.show_page(page)
    page.k.setValue(4)
    words = t.ordered_shingles(t.SENTENCES[0], t.WORDS)
    clicks = 0
    while page.next_button.isEnabled():
        qtbot.mouseClick(page.next_button, Qt.MouseButton.LeftButton)
        clicks += 1
    assert clicks == 4 * len(words)
    expect = reference_signature(set(words), k=4)
    assert page.signature_values() == expect
    assert [page.signature_table.item(i, 1).text() for i in range(4)] == [f"{v:,}" for v in expect]
    assert "complete" in page.explain.text()


def test_lesson5_to_the_end_and_typed_sentence(view, qtbot):
    page = view.step
    view.show_page(page)
    page.text.setText("Tiny words: a b a c")
    qtbot.mouseClick(page.function_button, Qt.MouseButton.LeftButton)
    assert page.signature_values()[0] == reference_signature({"tiny", "words", "a", "b", "c"})[0]
    assert page.signature_values()[1] is None
    qtbot.mouseClick(page.end_button, Qt.MouseButton.LeftButton)
    assert page.signature_values() == reference_signature({"tiny", "words", "a", "b", "c"})
    assert not page.next_button.isEnabled()


# --- 'use my files' -------------------------------------------------------------------------------------------------
def corpus(n: int = 6) -> list[tuple[str, str]]:
    rng = np.random.default_rng(5)
    base = [f"w{i}" for i in rng.choice(1000, 30, replace=False)]
    docs = [
        (f"folder/doc{i}.txt", " ".join(base[: 30 - 3 * i] + [f"x{i}y{j}" for j in range(3 * i)])) for i in range(n)
    ]
    return docs + [("folder/empty.txt", "... !!!")]


def test_use_my_files_is_lazy_and_switches_off_without_a_corpus(view, qtbot):
    calls = []
    docs = corpus()
    page = view.signatures
    assert not page.use_files.isEnabled()
    view.set_corpus(lambda: calls.append(threading.current_thread()) or docs)
    assert page.use_files.isEnabled() and calls == []
    page.use_files.setChecked(True)
    qtbot.waitUntil(lambda: page.doc_a.count() == 6)  # the document with no words is left out
    assert calls and calls[0] is not threading.main_thread()  # read on a worker, not on the GUI thread
    assert not page.reading_note.isVisible()
    a, b = set(docs[0][1].split()), set(docs[1][1].split())
    assert page.jaccard == pytest.approx(len(a & b) / len(a | b))
    view.banding.use_files.setChecked(True)
    view.scurve.use_files.setChecked(True)
    assert len(calls) == 1  # read once, shared by the lessons (here at once: no second reading)
    assert len(view.scurve.points.data) == 15 and view.banding.pairs.rowCount() > 0
    view.set_corpus(None)
    assert not page.use_files.isChecked() and not page.use_files.isEnabled()
    assert page.doc_a.itemText(0).startswith("0: Every evening")


class GatedCorpus:
    """A corpus whose documents come one at a time, each when the test lets it through (on the reading thread)."""

    def __init__(self, docs: list[tuple[str, str]]) -> None:
        self.docs, self.given, self.threads = docs, 0, []
        self.gate, self.closed = threading.Semaphore(0), threading.Event()

    def __call__(self):
        self.threads.append(threading.current_thread())
        try:
            for doc in self.docs:
                if not self.gate.acquire(timeout=10):
                    return
                self.given += 1
                yield doc
        finally:
            self.closed.set()


def test_use_my_files_says_it_reads_then_shows_the_documents_when_they_arrive(view, qtbot):
    gated = GatedCorpus(corpus())
    view.set_corpus(gated)
    page = view.signatures
    view.show_page(page)
    page.use_files.setChecked(True)
    assert page.reading_note.isVisible() and page.doc_a.count() == 8  # the sentences, until the files are here
    qtbot.waitUntil(lambda: gated.threads != [])
    assert gated.threads[0] is not threading.main_thread()
    gated.gate.release(len(gated.docs))
    qtbot.waitUntil(lambda: page.doc_a.count() == 6)
    assert not page.reading_note.isVisible() and page.doc_a.itemText(0).startswith("0: folder/doc0.txt")


def test_unticking_use_my_files_stops_the_reading(view, qtbot):
    gated = GatedCorpus(corpus())
    view.set_corpus(gated)
    page = view.banding
    view.show_page(page)
    page.use_files.setChecked(True)
    assert page.reading_note.isVisible()
    gated.gate.release(1)
    qtbot.waitUntil(lambda: gated.given == 1)
    page.use_files.setChecked(False)
    assert not page.reading_note.isVisible() and page.data_name == "the eight sample sentences"
    gated.gate.release(len(gated.docs))
    qtbot.waitUntil(gated.closed.is_set)
    assert gated.given <= 2 and not view.source.ready  # stopped at the next document, nothing kept


def test_another_corpus_cancels_the_reading_and_is_read_instead(view, qtbot):
    first = GatedCorpus(corpus())
    view.set_corpus(first)
    page = view.signatures
    page.use_files.setChecked(True)
    view.set_corpus(lambda: corpus(4))
    assert page.use_files.isChecked()
    qtbot.waitUntil(lambda: page.doc_a.count() == 4)
    first.gate.release(len(first.docs))
    qtbot.waitUntil(first.closed.is_set)
    qtbot.wait(50)  # anything the first reading still sent has been delivered (and dropped)
    assert page.doc_a.count() == 4 and first.given <= 1 and not page.reading_note.isVisible()


def test_use_my_files_with_too_few_documents_says_why(view, qtbot):
    view.set_corpus(lambda: [("only.txt", "one document")])
    page = view.scurve
    page.use_files.setChecked(True)
    qtbot.waitUntil(lambda: not page.use_files.isChecked())
    assert len(page.points.data) == 28  # back on the sample sentences


# --- experiments ----------------------------------------------------------------------------------------------------
def test_error_experiment_runs_in_a_worker_and_exports(view, qtbot, tmp_path, monkeypatch):
    page = view.error
    view.show_page(page)
    page.seeds.setValue(4)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert page.is_running()
    qtbot.waitUntil(lambda: not page.is_running(), timeout=60000)
    res = page.result
    assert res is not None and res.n_seeds == 4 and res.n_pairs == 28
    x, y = page.measured.getData()  # log mode: the curve holds log10 of the data
    assert np.allclose(10**x, res.ks) and np.allclose(10**y, res.mae)
    from lshdesk.gui.learn import experiment_base

    target = tmp_path / "err.csv"
    monkeypatch.setattr(experiment_base.QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(page.export_csv_button, Qt.MouseButton.LeftButton)
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert [int(r["k"]) for r in rows] == list(res.ks)
    png = tmp_path / "err.png"
    monkeypatch.setattr(experiment_base.QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    qtbot.mouseClick(page.export_plot_button, Qt.MouseButton.LeftButton)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "err"  # no extension typed: the chosen filter's is added
    monkeypatch.setattr(
        experiment_base.QFileDialog, "getSaveFileName", lambda *a, **k: (str(svg), "SVG drawing (*.svg)")
    )
    qtbot.mouseClick(page.export_plot_button, Qt.MouseButton.LeftButton)
    root = ElementTree.parse(tmp_path / "err.svg").getroot()
    assert root.tag.endswith("svg") and "mean |estimate" in (tmp_path / "err.svg").read_text(encoding="utf-8")


def test_banding_experiment_cancel_and_rerun(view, qtbot):
    page = view.sweep
    view.show_page(page)
    page.seeds.setValue(50_000)  # about two minutes of work: only a working cancel ends it in time
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.bar.value() > 0, timeout=10000)
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    assert not page.is_running() and page.status.text() == "Cancelled."
    qtbot.waitUntil(lambda: not running_threads(page), timeout=5000)
    assert page.result is None
    page.seeds.setValue(10)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.result is not None, timeout=60000)
    res = page.result
    assert res.names == ("strict", "balanced", "loose") and res.n_seeds == 10
    assert res.recall[0] < res.recall[1] <= res.recall[2]
    assert "entry" in page.table.text()


def test_banding_experiment_on_my_files(view, qtbot):
    view.set_corpus(lambda: corpus())
    page = view.sweep
    assert page.files_radio.isEnabled()
    page.files_radio.setChecked(True)
    page.seeds.setValue(5)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.result is not None, timeout=60000)
    assert page.result.n_similar + page.result.n_dissimilar == 15 * 5
    assert "your first 6 documents" in page.status.text()
