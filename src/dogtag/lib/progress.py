"""A plain progress bar for long command-line runs (renewals, imports)."""


class Progress:
    def __init__(self, label: str, total: int, stream, width: int = 30):
        self.label, self.total, self.done, self.width, self.stream = label, total, 0, width, stream

    def advance(self, n: int = 1) -> None:
        self.done += n
        filled = int(self.width * self.done / self.total) if self.total else self.width
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total}")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
