from django.urls import path

from dogtag.payments import views

urlpatterns = [
    path("pay/<str:token>/", views.pay, name="payments-pay"),
    path("pay/<str:token>/household/", views.pay_household, name="payments-pay-household"),
    path("pay-citation/<str:signed>/", views.pay_citation, name="payments-pay-citation"),
    path("c/<str:code>/", views.pay_citation_short, name="payments-pay-citation-short"),
    # The address each municipality gives its processor for notifications.
    path("payments/stripe/<slug:slug>/webhook/", views.stripe_webhook, name="payments-stripe-webhook"),
    path("payments/hosted/<slug:slug>/notify/", views.hosted_notification, name="payments-hosted-notify"),
    path("m/<slug:slug>/online-payments/", views.clerk_page, name="payments-clerk"),
    path("online-payments/refunds/<int:pk>/retry/", views.retry_refund, name="payments-refund-retry"),
]
