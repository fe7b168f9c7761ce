"""The access line made the short way (ops/logs.py) is the line gunicorn's own logger and
python-json-logger's general path make, field for field and byte for byte."""

import datetime
import io
import json
import logging

import time_machine
from gunicorn import glogging
from gunicorn.config import Config

from dogtag.ops.logs import AccessLogger, JsonFormatter


class Response:
    status = "200 OK"
    sent = 712
    headers = [("Content-Type", "application/json; charset=utf-8"), ("Content-Length", "712")]


class Request:
    headers = [("HOST", "127.0.0.1:8000"), ("AUTHORIZATION", "Bearer dt_x"), ("USER-AGENT", "finder/1.0")]


ENVIRON = {
    "REQUEST_METHOD": "GET",
    "RAW_URI": "/api/v1/municipalities/benton/tags/2026/5?x=%22",
    "PATH_INFO": "/api/v1/municipalities/benton/tags/2026/5",
    "QUERY_STRING": 'x="',
    "SERVER_PROTOCOL": "HTTP/1.1",
    "REMOTE_ADDR": "127.0.0.1",
    "HTTP_USER_AGENT": 'finder "1.0"',
    "HTTP_REFERER": "https://clinic.example/ü",
}
TOOK = datetime.timedelta(seconds=1, microseconds=23456)


def records(logger_class, access_log_format=None):
    """The LogRecords `logger_class` hands the access log's handlers for one request."""
    config = Config()
    if access_log_format:
        config.set("access_log_format", access_log_format)
    config.set("accesslog", "-")
    logger = logger_class(config)
    caught = []

    class Catch(logging.Handler):
        def emit(self, record):
            caught.append(record)

    logger.access_log.handlers = [Catch()]
    logger.access_log.propagate = False
    logger.access(Response, Request, ENVIRON, TOOK)
    return caught


def general(formatter, record):
    """python-json-logger's own path, as for every other record."""
    return super(JsonFormatter, formatter).format(record)


class Counting(JsonFormatter):
    """Counts the records that went python-json-logger's general way."""

    general = 0

    def add_fields(self, *args):
        self.general += 1
        super().add_fields(*args)


def test_the_short_line_is_the_general_line():
    formatter = Counting()
    [record] = records(AccessLogger)
    short = formatter.format(record)
    assert formatter.general == 0  # made the short way
    assert short == general(formatter, record)
    line = json.loads(short)
    assert (line["logger"], line["method"], line["status"], line["bytes"], line["duration_ms"]) == (
        "gunicorn.access",
        "GET",
        200,
        712,
        1023,
    )


@time_machine.travel(datetime.datetime(2026, 12, 7, 12, 0, 0, 999000, tzinfo=datetime.UTC), tick=False)
def test_the_message_is_gunicorns_own():
    # The clock stands still: the two lines are made in the same second whenever the test runs.
    [ours] = records(AccessLogger)
    [theirs] = records(glogging.Logger)
    assert ours.getMessage() == theirs.getMessage()
    assert "[07/Dec/2026:" in ours.getMessage()
    assert ours.levelno == theirs.levelno == logging.INFO


def test_a_format_naming_headers_gets_every_atom():
    form = '%(h)s "%({user-agent}i)s" %({content-length}o)s %({path_info}e)s'
    [ours] = records(AccessLogger, form)
    [theirs] = records(glogging.Logger, form)
    expected = '127.0.0.1 "finder/1.0" 712 /api/v1/municipalities/benton/tags/2026/5'
    assert ours.getMessage() == theirs.getMessage() == expected


def test_a_record_with_extra_fields_goes_the_general_way():
    formatter = Counting()
    [record] = records(AccessLogger)
    record.request_id = "abc"
    assert json.loads(formatter.format(record))["request_id"] == "abc"
    assert formatter.general == 1


def test_other_records_are_formatted_as_before():
    formatter = JsonFormatter()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    log = logging.getLogger("dogtag.test-logs")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("counted %s", 3, extra={"status_code": 404})
    finally:
        log.removeHandler(handler)
    line = json.loads(stream.getvalue())
    assert (line["logger"], line["level"], line["message"], line["status_code"]) == (
        "dogtag.test-logs",
        "WARNING",
        "counted 3",
        404,
    )
