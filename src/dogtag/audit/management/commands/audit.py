from django.core.management.base import BaseCommand, CommandError

from dogtag.audit import chain, checks


class Command(BaseCommand):
    help = (
        "`dogtag audit verify`: walk the audit trail's hash chain and name every event changed, deleted, "
        "back-dated or written past the chain; exit status 1 if there is one. --record stores the result "
        "for /healthz (the worker does so daily)."
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        verify = sub.add_parser("verify", help="verify the hash chain")
        verify.add_argument("--record", action="store_true", help="store the result for /healthz")

    def handle(self, *args, what, record=False, **options):
        verdict = checks.check() if record else chain.verify()
        for problem in verdict.problems:
            self.stdout.write(problem)
        if verdict.problems:
            count = len(verdict.problems)
            raise CommandError(f"The audit trail is broken: {count} problem(s) in {verdict.events} events.")
        last = verdict.last_hash or "(none)"
        self.stdout.write(f"The audit trail is whole: {verdict.events} events chained; the last hash is {last}.")
