"""Issue 18's GUI parts, widget by widget: file options, progress in each stage's unit, the folder column, an
empty result explained, stale results, the slow-scan warning and its gate, export folders, recent folder sets."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from gui_helpers import table
from PySide6.QtCore import QSettings

from lshdesk.core.params import CorpusOptions, ScanParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scan.progress import Progress
from lshdesk.gui import export_dir, recent_sets
from lshdesk.gui.dialogs.scan_warning import Gate, ScanWarning, pause_at_warnings
from lshdesk.gui.models.results import DocumentsModel, PairsModel
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.file_options import FileOptions
from lshdesk.gui.widgets.progress_area import ProgressArea
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.widgets.stale_banner import StaleBanner


def test_file_options_set_what_the_cli_flags_set(qtbot):
    w = FileOptions()
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.changed):
        w.all_files.setChecked(True)
    w.include.setText("*.txt notes/*")
    w.exclude.setText("*.log")
    w.max_mb.setValue(2.5)
    assert w.options() == CorpusOptions(("*.txt", "notes/*"), ("*.log",), True, int(2.5 * 2**20))
    back = CorpusOptions(("a*",), (), False, 5_000_000)  # an exact cap from a session survives the spin box
    w.set_options(back)
    assert not w.all_files.isChecked() and w.include.text() == "a*" and w.options() == back
    with qtbot.waitSignal(w.changed):
        w.follow_links.setChecked(True)  # --follow-links
    assert w.options() == CorpusOptions(("a*",), (), False, 5_000_000, follow_links=True)
    w.set_options(back)
    assert not w.follow_links.isChecked()


def test_progress_shows_each_stage_in_its_own_unit_with_time_left(qtbot):
    area = ProgressArea()
    qtbot.addWidget(area)
    area.start("Starting")
    area.update_progress(Progress("verifying", 0, 1_000_000, 1.0))
    assert area.stage.text() == "Verifying candidate pairs: 0 / 1,000,000 candidate pairs"
    time.sleep(0.25)
    area.update_progress(Progress("verifying", 250_000, 1_000_000, 1.3))
    rate = area.rate.text()
    assert "candidate pairs/s" in rate and rate.endswith("left") and "files" not in rate
    area.update_progress(Progress("estimating", 0, 0, 1.4))
    assert area.stage.text().startswith("Estimating the candidate pairs") and area.rate.text() == ""


def _two_folders(tmp_path: Path) -> list[str]:
    text = "the same report kept in two folders with a few words changed here and there " * 4
    for folder, name in (("docs", "r.txt"), ("ref/docs", "r.txt")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / name).write_text(text + folder, encoding="utf-8")
    return [str(tmp_path / "docs"), str(tmp_path / "ref" / "docs")]


def test_several_folders_show_which_folder_each_document_is_from(qtbot, tmp_path):
    roots = _two_folders(tmp_path)
    result = run(scan(roots, ScanParams(threshold=0.5), reference=[1]))
    from lshdesk.core.persistence.export import short_paths

    names = short_paths(result)
    top = tmp_path.name  # the same last part 'docs': one more part tells them apart
    assert names == [f"{top}/docs/r.txt", "ref/docs/r.txt"]
    pairs, docs = PairsModel(), DocumentsModel()
    pairs.set_result(result, names)
    docs.set_result(result, names)
    assert table(pairs)[0][5] == f"{top}/docs ↔ ref/docs (reference)"
    assert [row[6] for row in table(docs)] == [f"{top}/docs", "ref/docs (reference)"]


def test_an_empty_result_says_why(qtbot, tmp_path):
    roots = _two_folders(tmp_path)
    view = ResultsView()
    qtbot.addWidget(view)
    result = run(scan(roots, ScanParams(threshold=1.0), reference=[1]))
    view.set_result(result, ["a", "b"])
    text = view.empty.text()
    assert text.startswith("No pairs: no pair between the reference folder and the others reaches 1.00; the most")
    assert not view.empty.isHidden()
    found = run(scan(roots, ScanParams(threshold=0.5)))
    view.set_result(found, ["a", "b"])
    assert view.empty.isHidden()


def test_the_stale_banner_names_the_folders_and_parameters_of_the_results(qtbot, tmp_path):
    roots = _two_folders(tmp_path)
    state = AppState()
    banner = StaleBanner(state)
    qtbot.addWidget(banner)
    params = ScanParams(threshold=0.5)
    state.set_folders(roots[:1])
    state.set_params(params)
    state.set_result(run(scan(roots[:1], params)))
    assert banner.isHidden()
    state.set_folders(roots)
    assert not banner.isHidden() and "these results are of docs." in banner.label.text()
    state.set_folders(roots[:1])
    assert banner.isHidden()
    state.set_params(ScanParams(threshold=0.8))
    assert "with threshold 0.50, word:3 shingles" in banner.label.text()
    state.set_params(params)
    state.set_reference(roots[0], True)
    assert "docs (reference)" not in banner.label.text() and not banner.isHidden()  # the ticks changed


def test_the_warning_gate_holds_the_scan_until_the_user_answers(qtbot):
    cancel, gate = threading.Event(), Gate()

    def reports():
        yield Progress("estimating", 10**6, 0, warning="about 1.0 M candidate pairs")
        yield Progress("banding", 1, 1)
        return "result"

    gen = pause_at_warnings(reports(), gate, cancel)
    assert next(gen).warning
    got = []
    worker = threading.Thread(target=lambda: got.append(next(gen)))
    worker.start()
    worker.join(0.3)
    assert worker.is_alive() and not got  # waiting for the answer
    dialog = ScanWarning("about 1.0 M candidate pairs, ~20 s")
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.decided) as answer:
        dialog.continue_button.click()
    assert answer.args == [True]
    gate.open()
    worker.join(2)
    assert got and got[0].stage == "banding"
    stop = ScanWarning("x")
    qtbot.addWidget(stop)
    with qtbot.waitSignal(stop.decided) as answer:
        stop.stop_button.click()
    assert answer.args == [False]


def test_exports_are_offered_outside_the_scanned_folders(tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    scanned = tmp_path / "scanned"
    (scanned / "sub").mkdir(parents=True)
    export_dir.remember(settings, str(scanned / "sub" / "pairs.csv"))  # a folder inside the scan: not offered
    offered = export_dir.suggested_path(settings, [str(scanned)], "pairs.csv")
    assert not export_dir.inside(offered, [str(scanned)]) and offered.endswith("pairs.csv")
    out = tmp_path / "exports"
    out.mkdir()
    export_dir.remember(settings, str(out / "report.html"))
    assert export_dir.suggested_path(settings, [str(scanned)], "pairs.csv") == str(out / "pairs.csv")


def test_recent_folder_sets_keep_their_reference_ticks(tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    recent_sets.remember_set(settings, ["/a", "/b"], {"/b"})
    recent_sets.remember_set(settings, ["/c"], set())
    recent_sets.remember_set(settings, ["/a", "/b"], set())  # same folders, new ticks: replaces the older entry
    assert recent_sets.recent_sets(settings) == [(["/a", "/b"], set()), (["/c"], set())]
    assert recent_sets.label(["/x/a", "/y/b"], {"/y/b"}) == "/x/a + b (reference)"
    settings.setValue(recent_sets.KEY, '[{"folders": 3}, "junk", {"folders": ["/d"], "reference": ["/e"]}]')
    assert recent_sets.recent_sets(settings) == [(["/d"], set())]  # damaged entries dropped, foreign ticks too
    settings.setValue(recent_sets.KEY, "{not json")
    assert recent_sets.recent_sets(settings) == []
