from django.test import RequestFactory, SimpleTestCase, override_settings

from dogtag.portal.views import client_address


class ClientAddressTests(SimpleTestCase):
    def request(self):
        return RequestFactory().get("/found/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="203.0.113.9, 10.0.0.5")

    @override_settings(SECURE_PROXY_SSL_HEADER=None)
    def test_it_ignores_forwarded_headers_without_a_trusted_proxy(self):
        self.assertEqual(client_address(self.request()), "10.0.0.5")

    @override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
    def test_behind_the_proxy_it_limits_the_visitor_not_the_proxy(self):
        self.assertEqual(client_address(self.request()), "203.0.113.9")
