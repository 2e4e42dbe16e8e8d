"""Rally admin: scoped to the organiser's clubs; "resolve again" requeues a failed stage."""

from __future__ import annotations

from django.test import Client

from tests.rallies.helpers import create_rally, sheet, submit
from tournament.rallies.models import RallyStage


def test_admin_is_scoped_and_resolve_again_requeues_a_failed_stage(
    users, clients, django_capture_on_commit_callbacks
):
    ours = create_rally(clients["organiser"], rules={"super_rally": False})
    theirs = create_rally(clients["outsider"], club="porto", name="Porto rally")
    for number in (1, 2):
        submit(clients["scorekeeper"], ours["id"], number, sheet(ours, 300, 310, 320))
    # Stage 2 fails once stage 1 says Sara retired (RM-46) …
    submit(clients["scorekeeper"], ours["id"], 1, sheet(ours, 300, 310, {"status": "retired"}))
    failed = RallyStage.objects.get(competition_id=ours["id"], number=2)
    assert failed.status == "failed"
    users["organiser"].is_staff = True
    users["organiser"].save(update_fields=["is_staff"])
    admin = Client()
    admin.force_login(users["organiser"])
    listing = admin.get("/admin/rallies/rally/").content.decode()
    assert "Rali de Sintra" in listing and "Porto rally" not in listing
    assert admin.get(f"/admin/rallies/rally/{theirs['id']}/change/").status_code == 302
    # … and "resolve again" retries it: it fails again with the same message, not a 500.
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = admin.post(
            "/admin/rallies/rallystage/",
            {"action": "resolve_again", "_selected_action": [failed.pk]},
        )
    # One resolution queued (the resolution then announces the standings change after commit).
    assert [c.__qualname__.split(".")[0] for c in queued].count("queue_resolution") == 1
    assert response.status_code == 302
    failed.refresh_from_db()
    assert failed.status == "failed" and "out of the rally" in failed.error
