"""Frozen, validated parameters: how documents become shingles, signatures and bands."""

from __future__ import annotations

from dataclasses import dataclass, field

from lshdesk.core import shingle_kinds
from lshdesk.core.errors import ParamError
from lshdesk.core.formats import FORMATS

FAMILIES = ("fast", "article", "datasketch")
MEASURES = (
    "jaccard",
    "containment",
)  # Jaccard |A ∩ B| / |A ∪ B|; containment of the smaller in the larger |A ∩ B| / |A|
MAX_K = 4096


@dataclass(frozen=True)
class ShingleSpec:
    """A kind of ``shingle_kinds.KINDS`` and a size: ``word`` (tokens), ``word:N`` (N consecutive tokens) or
    ``char:N`` (N-character windows)."""

    kind: str = "word"
    n: int = 3

    def __post_init__(self) -> None:
        shingle_kinds.kind_of(self.kind)  # raises, naming the kinds there are
        if not 1 <= self.n <= 64:
            raise ParamError(f"shingle size N must be between 1 and 64, not {self.n}")

    @classmethod
    def parse(cls, text: str) -> ShingleSpec:
        """Parse ``word``, ``word:3``, ``char:5``; ``char`` alone is refused (say how many characters)."""
        return cls(*shingle_kinds.parse(text))

    def __str__(self) -> str:
        return shingle_kinds.kind_of(self.kind).written(self.n)


@dataclass(frozen=True)
class SignatureParams:
    """Everything that decides a document's signature: shingling, hash family, k and seed."""

    shingle: ShingleSpec = field(default_factory=lambda: ShingleSpec("word", 3))
    family: str = "fast"
    k: int = 128
    seed: int = 1

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ParamError(f"hash family must be one of {', '.join(FAMILIES)}, not {self.family!r}")
        if not 1 <= self.k <= MAX_K:
            raise ParamError(f"number of hash functions k must be between 1 and {MAX_K}, not {self.k}")
        if not 0 <= self.seed < 2**32:
            raise ParamError(f"seed must be an integer from 0 to {2**32 - 1}, not {self.seed}")


@dataclass(frozen=True)
class Banding:
    """A scheme: the signature cut into ``bands`` bands of ``rows`` rows (bands x rows <= k)."""

    bands: int
    rows: int

    def __post_init__(self) -> None:
        if self.bands < 1 or self.rows < 1:
            raise ParamError(f"bands and rows must be at least 1, not {self.bands} x {self.rows}")

    def check(self, k: int) -> Banding:
        """Return self if it fits a signature of k slots, else raise with the fix."""
        if self.bands * self.rows > k:
            raise ParamError(
                f"{self.bands} bands x {self.rows} rows = {self.bands * self.rows} slots, "
                f"more than the signature's k = {k}: lower bands or rows, or raise k"
            )
        return self

    def __str__(self) -> str:
        return f"{self.bands}x{self.rows}"


@dataclass(frozen=True)
class CorpusOptions:
    """Which files of the folders are read, and how."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    all_files: bool = False
    max_bytes: int = 20 * 1024 * 1024
    formats: frozenset[str] | None = None  # format ids to read (txt, pdf, docx, ...); None: all of them
    # fsspec options for URL roots, (KEY, VALUE text) pairs: may hold secrets, so never shown nor saved in sessions
    storage_options: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    # links to folders are listed as skipped unless followed, and followed only inside the scanned folders
    follow_links: bool = False
    # datasets (corpus.datasets): the column each row's text is in, and the one naming it (None: its position)
    text_column: str = "text"
    id_column: str | None = None
    # a dataset too large to scan here: a uniform random sample of this many rows, drawn with sample_seed
    # (corpus.sampling); None: every row
    sample_rows: int | None = None
    sample_seed: int = 0

    def __post_init__(self) -> None:
        if not self.text_column:
            raise ParamError("name the column the texts are in (the text column)")
        if self.sample_rows is not None and self.sample_rows < 2:
            raise ParamError(f"a sample needs at least 2 rows to hold a pair, not {self.sample_rows}")
        if not 0 <= self.sample_seed < 2**32:
            raise ParamError(f"the sample's seed must be a whole number from 0 to {2**32 - 1}, not {self.sample_seed}")
        if self.max_bytes < 1:
            raise ParamError(f"the size cap must be positive, not {self.max_bytes}")
        if self.formats is not None:
            object.__setattr__(self, "formats", frozenset(self.formats))
            unknown = sorted(set(self.formats) - set(FORMATS))
            if unknown:
                raise ParamError(f"unknown format {', '.join(unknown)}: choose from {', '.join(FORMATS)}")
            if not self.formats:
                raise ParamError("choose at least one format to read")


@dataclass(frozen=True)
class ScanParams:
    """One scan: signature parameters, the threshold, an optional manual scheme, and corpus options."""

    signature: SignatureParams = field(default_factory=SignatureParams)
    threshold: float = 0.8
    banding: Banding | None = None
    corpus: CorpusOptions = field(default_factory=CorpusOptions)
    # Default weighting of the automatic (b, r): chosen by measurement (tests/benchmarks/weights.py, k = 128).
    # Exact verification removes every false positive, so a false positive costs one exact comparison (~1-3 us)
    # while a false negative is a lost result: weigh misses 19 times more. Recall (mean over seeds) and the
    # banding + verification time the weighting changes, equal weights -> these:
    #   dev corpus (901 docs, 10 seeds):    t=0.5: 0.982 -> 0.999 (25x5 -> 26x3)   t=0.7: 0.957 -> 0.997 (14x9 -> 21x6)
    #                                       t=0.8: 0.962 -> 0.999 (9x13 -> 16x8)   1.5 ms -> 1.6 ms
    #   synthetic 100k docs (2 seeds):      t=0.5: 0.958 -> 0.998   t=0.7: 0.928 -> 0.996   t=0.8: 0.909 -> 0.996
    #                                       candidates +30% .. +47%, band + verify 45-181 ms (equal weights 58-135 ms)
    # Intermediate weightings (0.3/0.7, 0.2/0.8, 0.1/0.9) lie in between on both corpora. Below t = 0.3 any
    # weighting picks r = 2 rows, where a large corpus of loosely related texts yields many candidates.
    fp_weight: float = 0.05
    fn_weight: float = 0.95
    measure: str = "jaccard"  # containment: pairs where the smaller set is inside the larger at >= threshold

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ParamError(f"threshold must be in (0, 1], not {self.threshold}")
        check_measure(self.measure)
        if self.banding is not None:
            self.banding.check(self.signature.k)
            if self.measure == "containment":
                raise ParamError(
                    "a containment scan chooses bands x rows for each pair of document sizes: leave them out (auto)"
                )
        check_weights(self.fp_weight, self.fn_weight)


def check_weights(fp_weight: float, fn_weight: float) -> None:
    """Raise ``ParamError`` unless the false-positive and false-negative weights are >= 0 and not both 0."""
    if fp_weight < 0 or fn_weight < 0 or fp_weight + fn_weight <= 0:
        raise ParamError("false-positive and false-negative weights must be >= 0 and not both 0")


def check_measure(measure: str) -> str:
    """Return ``measure`` if it is one lshdesk knows, else raise with the choices."""
    if measure not in MEASURES:
        raise ParamError(f"measure must be {' or '.join(MEASURES)}, not {measure!r}")
    return measure
