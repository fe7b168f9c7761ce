import hashlib

from django.conf import settings
from django.db import models


class Role(models.TextChoices):
    CLERK = "clerk", "Clerk"
    OFFICER = "officer", "Officer"
    VETERINARIAN = "veterinarian", "Veterinarian"
    ADMINISTRATOR = "administrator", "Administrator"


class Membership(models.Model):
    """A user serves a municipality in a role; a county officer has one per municipality."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    municipality = models.ForeignKey("registry.Municipality", on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=15, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "municipality", "role"], name="unique_membership")]

    def __str__(self):
        return f"{self.user} — {self.get_role_display()}, {self.municipality}"


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiToken(models.Model):
    """A bearer token for an integration client (a clinic's system sending certificates).
    Only its hash is stored; the raw token is shown once, when it is made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
