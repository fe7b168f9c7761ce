"""Log records as one JSON object a line (python-json-logger), for a log collector to index.

The server's access log lines carry the request's fields (method, path, status, bytes, duration)
as fields of their own, not only inside the combined-log-format message.

An access line is written for every request, the tag lookup API's many a second included, so it
is made the short way: `AccessLogger` (gunicorn's logger, `dogtag serve`) gives the message only
the atoms gunicorn's log format names, not a copy of every request and response header and
environ entry, and `JsonFormatter` writes an access record's object directly, the same line
python-json-logger's general path would (tests/ops/test_logs.py compares the two).
"""

import json
import logging
import os
import time
import traceback
from collections.abc import Mapping

from gunicorn import glogging
from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

# gunicorn's access-log atoms -> our field names (gunicorn.glogging.Logger.atoms)
ACCESS_FIELDS = {"h": "client", "m": "method", "U": "path", "s": "status", "B": "bytes", "M": "duration_ms"}
ACCESS_LOGGER = "gunicorn.access"
# The attributes every LogRecord has: a record with any other (an `extra`) goes the general way.
_PLAIN_RECORD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


def _access_value(value):
    return int(value) if isinstance(value, str) and value.isdigit() else value


class JsonFormatter(_JsonFormatter):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("fmt", "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s")
        kwargs.setdefault("rename_fields", {"asctime": "time", "levelname": "level", "name": "logger"})
        kwargs.setdefault("timestamp", False)
        super().__init__(*args, **kwargs)
        # The short way is this formatter's own fields, in this order, and nothing else set.
        self._short = (
            self._required_fields == ["asctime", "levelname", "name", "process", "message"]
            and self.rename_fields == {"asctime": "time", "levelname": "level", "name": "logger"}
            and not (self.defaults or self.static_fields or self.timestamp or self.prefix)
            and not self.rename_fields_keep_missing
            and self.json_default is None
            and self.json_indent is None
            and self.json_ensure_ascii
        )

    def add_fields(self, log_record, record, message_dict):
        super().add_fields(log_record, record, message_dict)
        if record.name == ACCESS_LOGGER and isinstance(record.args, Mapping):
            for atom, field in ACCESS_FIELDS.items():
                value = record.args.get(atom)
                if value not in (None, "-"):
                    log_record[field] = _access_value(value)

    def format(self, record):
        if (
            self._short
            and record.name == ACCESS_LOGGER
            and isinstance(record.args, Mapping)
            and not (record.exc_info or record.exc_text or record.stack_info)
            and _PLAIN_RECORD.issuperset(vars(record))
        ):
            record.message = record.getMessage()
            line = {
                "time": self.formatTime(record, self.datefmt),
                "level": record.levelname,
                "logger": record.name,
                "process": record.process,
                "message": record.message,
            }
            args = record.args
            for atom, field in ACCESS_FIELDS.items():
                value = args.get(atom)
                if value not in (None, "-"):
                    line[field] = _access_value(value)
            return json.dumps(line)
        return super().format(record)


class AccessLogger(glogging.Logger):
    """gunicorn's logger, its access line's atoms limited to those the format names."""

    def setup(self, cfg):
        super().setup(cfg)
        # Header and environ atoms ({name}i, {name}o, {name}e) only if the format asks for one.
        self._every_atom = "}" in cfg.access_log_format
        self._second = None

    def access(self, resp, req, environ, request_time):
        """gunicorn's access line, the record handed to the log's handlers as `Logger.info` would
        but without looking up the caller's file and line on the stack (no format shows them)."""
        logger = self.access_log
        if self._every_atom or not self.access_log_enabled or not logger.isEnabledFor(logging.INFO):
            return super().access(resp, req, environ, request_time)
        try:
            atoms = self.atoms_wrapper_class(self.atoms(resp, req, environ, request_time))
            form = self.cfg.access_log_format
            logger.handle(logger.makeRecord(logger.name, logging.INFO, "(unknown file)", 0, form, (atoms,), None))
        except Exception:
            self.error(traceback.format_exc())

    def now(self):
        # gunicorn's [day/month/year:time zone], made once a second.
        second = int(time.time())
        made = self._second
        if made is None or made[0] != second:
            made = self._second = (second, time.strftime("[%d/%b/%Y:%H:%M:%S %z]", time.localtime(second)))
        return made[1]

    def atoms(self, resp, req, environ, request_time):
        if self._every_atom:
            return super().atoms(resp, req, environ, request_time)
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        return {
            "h": environ.get("REMOTE_ADDR", "-"),
            "l": "-",
            "u": self._get_user(environ) or "-",
            "t": self.now(),
            "r": f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}",
            "s": status,
            "m": environ.get("REQUEST_METHOD"),
            "U": environ.get("PATH_INFO"),
            "q": environ.get("QUERY_STRING"),
            "H": environ.get("SERVER_PROTOCOL"),
            "b": sent is not None and str(sent) or "-",
            "B": sent,
            "f": environ.get("HTTP_REFERER", "-"),
            "a": environ.get("HTTP_USER_AGENT", "-"),
            "T": request_time.seconds,
            "D": (request_time.seconds * 1000000) + request_time.microseconds,
            "M": (request_time.seconds * 1000) + int(request_time.microseconds / 1000),
            "L": f"{request_time.seconds}.{request_time.microseconds:06d}",
            "p": f"<{os.getpid()}>",
        }
