"""Small deterministic GeoJSON reading and writing for the geography extracts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shapely.geometry import mapping, shape
from shapely.geometry.base import BaseGeometry

from wargame.errors import DataError, Place
from wargame.files import write_atomically

DECIMALS = 5  # about a metre: far below an 11-mile hex, and stable diffs


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DECIMALS)
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def write_features(path: Path, features: list[tuple[dict[str, Any], BaseGeometry]], comment: str) -> int:
    """Write (properties, geometry) pairs as a FeatureCollection, atomically; the byte count."""
    doc = {
        "type": "FeatureCollection",
        "comment": comment,
        "features": [
            {"type": "Feature", "properties": props, "geometry": _rounded(mapping(geometry))}
            for props, geometry in features
        ],
    }
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # One feature per line keeps diffs readable.
    text = text.replace(',{"geometry"', ',\n{"geometry"') + "\n"
    write_atomically(path, text)
    return len(text.encode("utf-8"))


def read_features(path: Path) -> list[tuple[dict[str, Any], BaseGeometry]]:
    """(properties, geometry) pairs of a FeatureCollection written by write_features."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return [(f["properties"], shape(f["geometry"])) for f in doc["features"]]
    except FileNotFoundError:
        raise DataError("extract not found: run `vmodbuild geography extract` first", Place(path)) from None
    except (ValueError, KeyError, TypeError) as e:
        raise DataError(f"not a geography extract: {e}", Place(path)) from None
    except RecursionError:
        raise DataError("not a geography extract: arrays or objects nested too deep", Place(path)) from None
