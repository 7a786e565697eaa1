"""The published-rollouts benchmark (issue 40): a run resumed into a file
keeps only results of one setting, and its report reads the file back."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
SAVED = ROOT / "benchmarks" / "results" / "published_rollouts_cube_seven_ob.json"


@pytest.fixture(scope="module")
def bench():
    return load_script(ROOT / "benchmarks" / "published_rollouts.py")


@pytest.mark.parametrize("option", [["--policy", "net:1"], ["--games", "216"], ["--seed", "2"],
                                    ["--cube-policy", "net:1"], ["--cubeful-plays"]])
def test_resume_refuses_a_file_of_other_settings(bench, tmp_path, capsys, option):
    out = tmp_path / "r.json"
    out.write_text(SAVED.read_text())
    with pytest.raises(SystemExit) as e:
        bench.main(["--only", "cube", "--resume", "--out", str(out), *option])
    assert e.value.code == 2
    assert "other settings" in capsys.readouterr().err
    assert out.read_text() == SAVED.read_text()          # left as it was


def test_resume_of_a_finished_file_runs_nothing_and_reports_it(bench, tmp_path, capsys):
    saved = json.loads(SAVED.read_text())
    ids = ",".join(r["id"] for r in saved["results"])
    out = tmp_path / "r.json"
    out.write_text(SAVED.read_text())
    assert bench.main(["--ids", ids, "--resume", "--out", str(out), "--games", "1296", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert f"| issue's seven | cube | {saved['summary']['issue_seven']['cube']['best']}/7 |" in text
    assert json.loads(out.read_text()) == saved
