from dogtag.worker import heartbeat as _heartbeat


def heartbeat() -> None:
    _heartbeat.beat()
