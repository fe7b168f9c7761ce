"""Log records as one JSON object a line (python-json-logger), for a log collector to index.

The server's access log lines carry the request's fields (method, path, status, bytes, duration)
as fields of their own, not only inside the combined-log-format message.
"""

from collections.abc import Mapping

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

# gunicorn's access-log atoms -> our field names (gunicorn.glogging.Logger.atoms)
ACCESS_FIELDS = {"h": "client", "m": "method", "U": "path", "s": "status", "B": "bytes", "M": "duration_ms"}


class JsonFormatter(_JsonFormatter):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("fmt", "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s")
        kwargs.setdefault("rename_fields", {"asctime": "time", "levelname": "level", "name": "logger"})
        kwargs.setdefault("timestamp", False)
        super().__init__(*args, **kwargs)

    def add_fields(self, log_record, record, message_dict):
        super().add_fields(log_record, record, message_dict)
        if record.name == "gunicorn.access" and isinstance(record.args, Mapping):
            for atom, field in ACCESS_FIELDS.items():
                value = record.args.get(atom)
                if value not in (None, "-"):
                    log_record[field] = int(value) if isinstance(value, str) and value.isdigit() else value
