from tests.rallies.helpers import *

def test_smoke(clients):
    r = create_rally(clients["organiser"])
    print(r)
    a = submit(clients["scorekeeper"], r["id"], 1, sheet(r, 300, "5:10", {"log": "1 2 3 4 4 5 0 3 4 t2", "penalties": [{"seconds": 10, "reason": "jump start"}]}))
    print(a.status_code, a.json())
    print(standings(clients["anonymous"], r["id"]).json())
    b = submit(clients["scorekeeper"], r["id"], 2, sheet(r, -3, "5:70", {"log": "1 9 x t2 3", "penalties": [{"seconds": 0, "reason": ""}, 5]}) + [{"driver": 99999, "foo": 1}])
    print(b.status_code, b.json())
    c = clients["scorekeeper"].post(f"/api/rallies/{r['id']}/stages/1/simulate/")
    print(c.status_code, c.json())
    print(stage(clients["anonymous"], r["id"], 1))
    print(clients["anonymous"].get(f"/api/rallies/{r['id']}/stages/1/replay/").json().keys())
