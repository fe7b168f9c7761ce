from dogtag.registry.management.commands.rules import Command as RulesCommand


class Command(RulesCommand):
    help = "What of an ordinance is encoded: `law coverage JURISDICTION`."
    topic = "law"
