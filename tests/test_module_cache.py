"""`vmodbuild build` of unchanged inputs writes the module kept from the build before (issue 30: rebuilds)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from builder.cli import main as vmodbuild
from builder.vassal import module_cache

from import_probe import run_probe

ROOT = Path(__file__).resolve().parents[1]


def _build(cache: Path, out: Path, data: Path | None = None) -> str:
    """`vmodbuild build moscow` with a cache folder; its output line."""
    args = ["build", "moscow", "--out", str(out)] + (["--data", str(data)] if data else [])
    result = CliRunner().invoke(vmodbuild, args, env={"UMPIRE_CACHE": str(cache)})
    assert result.exit_code == 0, result.output + (result.stderr or "")
    return result.output


def test_a_rebuild_of_unchanged_inputs_loads_and_draws_nothing(tmp_path: Path) -> None:
    """The second build, in a new process, imports neither Pillow, lxml nor pydantic (nor hashlib, shutil or pickle),
    and writes the same bytes with the same report."""
    cache, first, second = tmp_path / "cache", tmp_path / "first", tmp_path / "second"
    # The first build in a process of its own too, as a user runs them: a test worker may have worked out the code's
    # digest already (code_stamp is kept for the process), for another cache folder.
    built = run_probe("import sys\nfrom builder.cli import main\nsys.argv = ['vmodbuild', 'build', 'moscow', '--out', "
                      f"{str(first)!r}]\nmain()\n", cwd=tmp_path, env={**os.environ, "UMPIRE_CACHE": str(cache)},
                      check=False)
    assert built.returncode == 0, built.stderr
    said = built.stdout
    code = ("import sys\nfrom builder.cli import main\nsys.argv = ['vmodbuild', 'build', 'moscow', '--out', "
            f"{str(second)!r}]\ntry:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'PIL', 'lxml', 'pydantic', 'shapely'}))\n"
            "print(sorted({'hashlib', '_hashlib', 'shutil', 'pickle', 'builder.scaffold'} & set(sys.modules)))\n")
    done = run_probe(code, cwd=tmp_path, env={**os.environ, "UMPIRE_CACHE": str(cache)}, check=False)
    assert done.returncode == 0, done.stderr
    report, imported, small = done.stdout.splitlines()
    assert imported == "[]"
    # Nor OpenSSL (the sources' digest is remembered), the copying of `new`, or the game cache's pickling.
    assert small == "[]"
    assert report.replace(str(second), "OUT") == said.strip().replace(str(first), "OUT")
    assert (second / "moscow.vmod").read_bytes() == (first / "moscow.vmod").read_bytes()


def test_a_rebuild_that_draws_no_board_imports_no_shapely(tmp_path: Path, data_copy: Path) -> None:
    """units.csv changed where no image shows it: the module is assembled again from the kept art, and the
    board's drawing (shapely, numpy) is not imported."""
    cache = tmp_path / "cache"
    _build(cache, tmp_path / "first", data_copy)
    with (data_copy / "counters" / "moscow" / "units.csv").open("a", encoding="utf-8") as units:
        units.write("# a comment\n")
    code = ("import sys\nfrom builder.cli import main\nsys.argv = ['vmodbuild', 'build', 'moscow', '--out', "
            f"{str(tmp_path / 'again')!r}, '--data', {str(data_copy)!r}]\ntry:\n    main()\n"
            "except SystemExit as done:\n    assert not done.code, done.code\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'PIL', 'lxml', 'shapely', 'numpy'}))\n")
    done = run_probe(code, cwd=tmp_path, env={**os.environ, "UMPIRE_CACHE": str(cache)}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "['PIL', 'lxml']"
    assert (tmp_path / "again" / "moscow.vmod").read_bytes() == (tmp_path / "first" / "moscow.vmod").read_bytes()


def test_a_changed_data_file_builds_again(tmp_path: Path, data_copy: Path) -> None:
    """A data file changed since: the module is built again from it, as a build without a cache builds it."""
    cache = tmp_path / "cache"
    _build(cache, tmp_path / "first", data_copy)
    units = data_copy / "counters" / "moscow" / "units.csv"
    row = "XLI Panzer Corps,German,german,panzer,mobile,corps,2,{}-6,"
    units.write_text(units.read_text(encoding="utf-8").replace(row.format(12), row.format(11)), encoding="utf-8")
    _build(cache, tmp_path / "again", data_copy)
    _build(tmp_path / "cold-cache", tmp_path / "cold", data_copy)
    again = (tmp_path / "again" / "moscow.vmod").read_bytes()
    assert again != (tmp_path / "first" / "moscow.vmod").read_bytes()
    assert again == (tmp_path / "cold" / "moscow.vmod").read_bytes()


@pytest.mark.parametrize("while_", ["drawing", "assembling"])
def test_a_data_file_changed_during_a_build_is_not_kept_under_its_new_bytes(
        tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch, while_: str) -> None:
    """units.csv edited while the art is drawn or the module assembled: neither that art nor that module (of the
    old bytes) is kept under the new bytes, so the next build is built again, as a build without a cache builds it."""
    from builder.vassal import art_cache
    from builder.vassal import module as module_writer

    units = data_copy / "counters" / "moscow" / "units.csv"
    row = "XLI Panzer Corps,German,german,panzer,mobile,corps,2,{}-6,"
    # Edited as the art's keys are worked out (after the game was loaded), or once the module is assembled.
    owner, name = (art_cache, "file_digests") if while_ == "drawing" else (module_writer, "write_module")
    work = getattr(owner, name)

    def edited_meanwhile(*args: object, **kwargs: object) -> object:
        if while_ == "drawing":
            units.write_text(units.read_text(encoding="utf-8").replace(row.format(12), row.format(11)),
                             encoding="utf-8")
        done = work(*args, **kwargs)
        if while_ == "assembling":
            units.write_text(units.read_text(encoding="utf-8").replace(row.format(12), row.format(11)),
                             encoding="utf-8")
        return done

    cache = tmp_path / "cache"
    monkeypatch.setattr(owner, name, edited_meanwhile)
    _build(cache, tmp_path / "first", data_copy)
    monkeypatch.undo()
    _build(cache, tmp_path / "again", data_copy)
    _build(tmp_path / "cold-cache", tmp_path / "cold", data_copy)
    again = (tmp_path / "again" / "moscow.vmod").read_bytes()
    assert again != (tmp_path / "first" / "moscow.vmod").read_bytes()
    assert again == (tmp_path / "cold" / "moscow.vmod").read_bytes()


@pytest.mark.parametrize("damage", ["cut", "junk", "nested", "shared"])
def test_a_damaged_or_foreign_entry_is_built_again(tmp_path: Path, damage: str) -> None:
    """An entry cut short, of junk (a header of arrays nested 100,000 deep: a RecursionError, until session 22), or
    writable by others is not used: the module is built again."""
    cache = tmp_path / "cache"
    _build(cache, tmp_path / "first")
    (entry,) = (cache / "modules").glob("*.vmod")
    if damage == "cut":
        entry.write_bytes(entry.read_bytes()[:40])
    elif damage == "junk":
        entry.write_bytes(b"\xff\xfe not a header\n" + entry.read_bytes())
    elif damage == "nested":
        entry.write_bytes(b"[" * 100_000 + b"\n" + entry.read_bytes())
    else:
        entry.write_bytes(entry.read_bytes().replace(b'"images": 88', b'"images": 89'))
        entry.chmod(0o666)
    assert module_cache.kept_module(cache, ROOT, "moscow", 1.0, "9.9") is None  # another version: another entry
    _build(cache, tmp_path / "again")
    assert (tmp_path / "again" / "moscow.vmod").read_bytes() == (tmp_path / "first" / "moscow.vmod").read_bytes()
    assert "89 images" not in _build(cache, tmp_path / "third")


def test_art_drawn_from_a_game_whose_files_changed_since_it_loaded_is_not_kept(tmp_path: Path, data_copy: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The art store is written only while the data read as the game was loaded: a units.csv edited after loading
    (so a chart naming units would be kept under the edited bytes' key, drawn from the old rows) keeps nothing."""
    from builder.vassal import art_cache
    from wargame.game import load_game

    monkeypatch.setenv("UMPIRE_CACHE", "")  # the game itself is not read from or kept in any cache folder
    game = load_game(data_copy, "moscow")
    units = data_copy / "counters" / "moscow" / "units.csv"
    units.write_text(units.read_text(encoding="utf-8") + "# edited after loading\n", encoding="utf-8")
    store = tmp_path / "cache"
    art_cache.cached_art(game, 1.0, store)
    assert not list(store.glob("art/*.pngs"))
    fresh = load_game(data_copy, "moscow")  # the edited bytes: a game of its own, whose art is kept
    art_cache.cached_art(fresh, 1.0, store)
    assert list(store.glob("art/*.pngs"))


def test_versions_read_as_importlib_metadata_reads_them() -> None:
    """The versions a module is keyed by (and Umpire's, written into it) are importlib.metadata's, read from the
    dist-info folders' names without importing it (some 120M instructions of a build, issue 30 item 2)."""
    from importlib.metadata import PackageNotFoundError, version

    from builder.vassal.module_cache import installed_version, package_version

    for name in ("umpire", "pillow", "Pillow", "lxml", "pydantic", "pydantic-core", "pydantic_core", "click"):
        assert installed_version(name) == version(name) == package_version(name), name
    assert installed_version("no-such-distribution") is None
    with pytest.raises(PackageNotFoundError):
        package_version("no-such-distribution")
    probe = ("import sys\nfrom builder.vassal.module_cache import code_stamp, package_version\ncode_stamp()\n"
             "package_version('umpire')\nprint('importlib.metadata' in sys.modules)")
    assert run_probe(probe).stdout.split() == ["False"]


def test_a_version_no_dist_info_folder_names_is_asked_of_importlib_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library installed without a dist-info folder (an egg-info install, as some system packages are) still keys
    the kept modules by its version: the key is the one the folders' names give, not one that says it is absent."""
    from builder.vassal import module_cache

    module_cache.code_stamp.cache_clear()
    named = module_cache.code_stamp()
    monkeypatch.setattr(module_cache, "installed_version", lambda name: None)
    module_cache.code_stamp.cache_clear()
    try:
        assert module_cache.code_stamp() == named
    finally:
        module_cache.code_stamp.cache_clear()


def test_the_art_and_module_caches_read_each_source_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The art cache's and the module cache's keys hash the same sources and fonts: each file is read and hashed once
    a process (the fonts alone are 3 MB; reading everything twice was about 0.01 s of a build), with an empty cache
    folder (no digest remembered yet)."""
    from builder.vassal import art_cache, sources

    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path))

    module_cache.code_stamp.cache_clear()
    art_cache.code_digest.cache_clear()
    sources._file_digest.cache_clear()
    module_cache.code_stamp()
    art_cache.code_digest()
    read = sources._file_digest.cache_info()
    files = {p for folder in (*module_cache._CODE, *art_cache.ART_INPUTS) for p in sources._sources(folder)}
    assert read.misses == len(files) and read.hits > 50


def _sources_tree(root: Path) -> list[Path]:
    """A small tree of sources and a font under `root`, as the builder's folders hold them."""
    (root / "code" / "__pycache__").mkdir(parents=True)
    (root / "code" / "a.py").write_text("A = 1\n", encoding="utf-8")
    (root / "code" / "b.py").write_text("B = 2\n", encoding="utf-8")
    (root / "code" / "__pycache__" / "a.cpython-312.pyc").write_bytes(b"not a source")
    (root / "code" / "font.ttf").write_bytes(b"\0\1font")
    return [root / "code"]


def test_a_sources_digest_is_remembered_under_the_files_signature(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Worked out once, a digest of the sources is read back by a later process whose files have the same signature
    (no source read, no OpenSSL loaded: a rebuild of unchanged data, issue 30 item 3); an edited file is hashed again,
    even with its modification time put back, and gives the digest its bytes give."""
    from builder.vassal import sources

    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    folders = _sources_tree(tmp_path / "tree")
    first = sources.sources_digest(folders, tmp_path / "tree")
    remembered = list((tmp_path / "cache" / "sources").glob("*.digest"))
    assert len(remembered) == 1 and remembered[0].read_bytes() == first
    # A new process: the digest read back, no file of the tree read, hashlib never imported.
    probe = ("import sys\nfrom pathlib import Path\nfrom builder.vassal import sources\n"
             "tree = Path(sys.argv[1])\n"
             "print(sources.sources_digest([tree / 'code'], tree).hex(), sources._file_digest.cache_info().misses,"
             " 'hashlib' in sys.modules)")
    done = run_probe(probe, str(tmp_path / "tree"), env={**os.environ, "UMPIRE_CACHE": str(tmp_path / "cache")})
    assert done.stdout.split() == [first.hex(), "0", "False"]
    # Edited, its size and modification time as they were: its change time differs, so it is hashed again.
    edited = tmp_path / "tree" / "code" / "a.py"
    before = edited.stat()
    edited.write_text("A = 9\n", encoding="utf-8")
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    sources._file_digest.cache_clear()
    sources._sources.cache_clear()
    again = sources.sources_digest(folders, tmp_path / "tree")
    monkeypatch.setenv("UMPIRE_CACHE", "")
    sources._file_digest.cache_clear()
    assert again != first and again == sources.sources_digest(folders, tmp_path / "tree")


def test_a_remembered_digest_not_ours_or_damaged_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered digest that others may write, or of the wrong length, is passed over: the sources are hashed."""
    from builder.vassal import sources

    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path / "cache"))
    folders = _sources_tree(tmp_path / "tree")
    true = sources.sources_digest(folders, tmp_path / "tree")
    kept = next((tmp_path / "cache" / "sources").glob("*.digest"))
    for damage in ("writable", "short"):
        kept.write_bytes(b"x" * 20 if damage == "writable" else b"x" * 5)
        kept.chmod(0o666 if damage == "writable" else 0o600)
        sources._file_digest.cache_clear()
        assert sources.sources_digest(folders, tmp_path / "tree") == true, damage
        kept.chmod(0o600)


def test_the_sources_found_are_every_source_and_font_but_bytecode() -> None:
    """The builder's and the kernel's sources and fonts as rglob finds them, __pycache__ passed over unwalked."""
    from builder.vassal import art_cache, sources

    for folder in (*module_cache._CODE, *art_cache.ART_INPUTS):
        found = tuple(sorted(p for p in folder.rglob("*") if p.suffix in sources.SUFFIXES and p.is_file()))
        assert sources._sources(folder) == found and found
