"""Stand-in for polars on the GPU machine, where the real wheel (54 MB) does not fit the 64 MiB a
device call may carry. ultralytics only reads its results.csv with it, inside a try, and gives an
empty summary when that fails; with plots off nothing else in training needs it."""


def read_csv(*args, **kwargs):
    raise RuntimeError("polars is not installed here (scripts/gpu_stubs)")


def DataFrame(*args, **kwargs):  # noqa: N802 - the real name
    raise RuntimeError("polars is not installed here (scripts/gpu_stubs)")
