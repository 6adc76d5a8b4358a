"""The measure as a scan parameter: validated, kept by sessions and settings, dispatched by the engine choice."""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import planted_excerpts, write_tree

from lshdesk.core.errors import ParamError
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.persistence.session import load_session, params_from_json, params_to_json, save_session
from lshdesk.core.query.containment import ContainmentPairs
from lshdesk.core.scan.pipeline import run
from lshdesk.distributed.engines import make_scan


def test_measure_is_validated_and_containment_refuses_a_manual_scheme():
    assert ScanParams().measure == "jaccard"
    with pytest.raises(ParamError, match="jaccard or containment"):
        ScanParams(measure="cosine")
    with pytest.raises(ParamError, match="leave them out"):
        ScanParams(banding=Banding(16, 8), measure="containment")
    p = ScanParams(threshold=0.7, measure="containment")
    assert params_from_json(params_to_json(p)) == p
    old = params_to_json(ScanParams())
    del old["measure"]  # settings and sessions written before the measure existed
    assert params_from_json(old).measure == "jaccard"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("measure")
    texts, source = planted_excerpts(np.random.default_rng(17), n=6)
    write_tree(root, texts)
    return root, source


@pytest.mark.parametrize("cache", [False, True])
def test_the_engine_choice_runs_a_containment_scan(folder, tmp_path, cache):
    root, source = folder
    params = ScanParams(threshold=0.8, measure="containment")
    gen = make_scan("local", [str(root)], params, cache=cache, cache_path=str(tmp_path / "c.sqlite3"))
    result = run(gen)
    assert isinstance(result.pairs, ContainmentPairs) and result.params.measure == "containment"
    rel = result.docs.rel
    assert {(rel[l], rel[r]) for l, r in zip(result.pairs.left, result.pairs.right)} == set(source.items())
    with pytest.raises(ParamError, match="this machine"):
        run(make_scan("dask", [str(root)], params))


def test_a_containment_session_round_trips(folder, tmp_path):
    root, _ = folder
    result = run(make_scan("local", [str(root)], ScanParams(threshold=0.8, measure="containment"), cache=False))
    path = tmp_path / "c.lshdesk"
    save_session(path, result)
    back, _, _ = load_session(path)
    assert isinstance(back.pairs, ContainmentPairs) and back.params.measure == "containment"
    assert np.array_equal(back.pairs.containment, result.pairs.containment)
    assert np.array_equal(back.candidates.containment, result.candidates.containment)


def test_a_session_with_containments_not_matching_its_pairs_is_refused(folder, tmp_path):
    import io
    import zipfile

    from lshdesk.core.persistence.session import SessionError

    root, _ = folder
    result = run(make_scan("local", [str(root)], ScanParams(threshold=0.8, measure="containment"), cache=False))
    path = tmp_path / "c.lshdesk"
    save_session(path, result)
    with zipfile.ZipFile(path) as z:
        header, npz = z.read("header.json"), np.load(io.BytesIO(z.read("arrays.npz")))
        arrays = {k: npz[k] for k in npz.files}
    arrays["pairs.containment"] = arrays["pairs.containment"][:-1]
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", header)
        z.writestr("arrays.npz", buf.getvalue())
    with pytest.raises(SessionError, match="pairs.containment"):
        load_session(path)
