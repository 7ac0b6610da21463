"""Verifies webhook deliveries with the Standard Webhooks specification's own Python library.

Usage: WEBHOOK_SECRET=whsec_... verify-webhooks.py < requests.json
stdin: a JSON array of {"headers": {name: value}, "body": base64 of the bytes received}, as the
loopback receiver recorded them. Prints a JSON array, one object per request: {"ok": true,
"id": webhook-id, "payload": the verified JSON} or {"ok": false, "error": why}. The secret
comes from the environment, never argv.
"""
import base64
import json
import os
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

webhook = Webhook(os.environ["WEBHOOK_SECRET"])
results = []
for request in json.load(sys.stdin):
    body = base64.b64decode(request["body"])
    headers = {name.lower(): value for name, value in request["headers"].items()}
    try:
        payload = webhook.verify(body, headers)
        results.append({"ok": True, "id": headers.get("webhook-id"), "payload": payload})
    except WebhookVerificationError as error:
        results.append({"ok": False, "error": str(error)})
print(json.dumps(results))
