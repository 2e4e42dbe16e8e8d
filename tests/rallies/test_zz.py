from tests.rallies.test_pages import web, scored  # noqa
def test_dump(web, scored):
    html = web["anonymous"].get(f"/rallies/{scored['id']}/").content.decode()
    i = html.find("<svg viewBox")
    print(html[i:i+1200])
    j = html.find('id="stage-times"')
    print(html[j:j+1800])
