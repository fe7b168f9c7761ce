"""Documents a message attaches, rendered by the sender when it sends, not by the action that
queued it: a PDF takes WeasyPrint a second, and the action's transaction (a processor's
notification issuing a license, say) then only writes rows. The message names the document
(`attachment_document`) and what it is of (`attachment_args`); the app that owns the document
registers its renderer here, in its AppConfig.ready(), since the outbox sits below the apps
whose documents it sends. Rendering reads the rows as they are at sending time, so a renderer
renders a document that does not change once written (a license's certificate)."""

from collections.abc import Callable

Renderer = Callable[..., bytes]

_renderers: dict[str, Renderer] = {}


class UnknownDocument(LookupError):
    pass


def renderer(name: str) -> Callable[[Renderer], Renderer]:
    """Register `function(**args) -> bytes` as the renderer of the document `name`."""

    def register(function: Renderer) -> Renderer:
        if _renderers.get(name, function) is not function:
            raise ValueError(f"two renderers for the document {name!r}")
        _renderers[name] = function
        return function

    return register


def render(name: str, args: dict) -> bytes:
    try:
        function = _renderers[name]
    except KeyError:
        raise UnknownDocument(f"no renderer for the document {name!r}") from None
    return function(**args)


def names() -> set[str]:
    return set(_renderers)
