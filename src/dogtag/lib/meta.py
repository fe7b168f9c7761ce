"""A model's table and columns, for SQL written by hand about another app's model, from its
public `_meta` (that app's own)."""


def db_table(model) -> str:
    return model._meta.db_table


def column(model, name: str) -> str:
    return model._meta.get_field(name).column


def related_model(model, name: str):
    return model._meta.get_field(name).related_model


def field_names(model) -> list[str]:
    """The attribute names of the model's concrete fields, in the order `Model.from_db` takes them."""
    return [f.attname for f in model._meta.concrete_fields]
