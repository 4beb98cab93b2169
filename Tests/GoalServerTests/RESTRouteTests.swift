import GoalTestSlots
import NIOHTTP1
import Testing

@testable import GoalServer

/// The HTTP API's router, pure: Goalbase's paths address the default league (no league segment), every route of
/// one league is also under `/api/v1/leagues/{league}/` with that segment carried as sent, the league directory has
/// its own routes, and 405/404 keep their rules there.
@Suite("HTTP API: the router's league routes", .slotted)
struct RESTRouteTests {
    private func target(_ method: HTTPMethod, _ path: String) -> RESTTarget {
        RESTTarget(method: method, path: path)
    }

    @Test("Goalbase's paths are the default league's: no league segment, same routes as before")
    func goalbasePathsAddressNoLeague() {
        let cases: [(HTTPMethod, String, RESTRoute)] = [
            (.GET, "/api/v1/players", .listPlayers),
            (.HEAD, "/api/v1/players/", .listPlayers),
            (.POST, "/api/v1/players", .createPlayer),
            (.DELETE, "/api/v1/players/p1", .deletePlayer(id: "p1")),
            (.GET, "/api/v1/matches", .listMatches),
            (.POST, "/api/v1/matches", .createMatch),
            (.PUT, "/api/v1/matches/m1", .updateMatch(id: "m1")),
            (.DELETE, "/api/v1/matches/m1", .deleteMatch(id: "m1")),
            (.GET, "/api/v1/rankings", .rankings),
            (.GET, "/api/v1/openapi.json", .openAPIDocument),
        ]
        for (method, path, route) in cases {
            #expect(target(method, path) == RESTTarget(route: route, league: nil), "\(method) \(path)")
        }
    }

    @Test("every route of one league is under /api/v1/leagues/{league}/ and carries the segment as sent")
    func leagueScopedRoutes() {
        let cases: [(HTTPMethod, String, RESTRoute)] = [
            (.GET, "players", .listPlayers),
            (.HEAD, "players", .listPlayers),
            (.POST, "players/", .createPlayer),
            (.DELETE, "players/p1", .deletePlayer(id: "p1")),
            (.GET, "matches", .listMatches),
            (.POST, "matches", .createMatch),
            (.PUT, "matches/m1", .updateMatch(id: "m1")),
            (.DELETE, "matches/m1", .deleteMatch(id: "m1")),
            (.GET, "rankings", .rankings),
        ]
        for (method, rest, route) in cases {
            let path = "/api/v1/leagues/office-berlin/" + rest
            #expect(target(method, path) == RESTTarget(route: route, league: "office-berlin"), "\(method) \(path)")
        }
        // The segment is not judged here (the API answers 404 for one that cannot be a league's id).
        #expect(target(.GET, "/api/v1/leagues/Not_A_Slug/players").league == "Not_A_Slug")
        #expect(target(.GET, "/api/v1/leagues/default/rankings") == RESTTarget(route: .rankings, league: "default"))
    }

    @Test("the league directory: list, create, rename, delete; it addresses no one league")
    func directoryRoutes() {
        #expect(target(.GET, "/api/v1/leagues") == RESTTarget(route: .listLeagues, league: nil))
        #expect(target(.HEAD, "/api/v1/leagues/") == RESTTarget(route: .listLeagues, league: nil))
        #expect(target(.POST, "/api/v1/leagues") == RESTTarget(route: .createLeague, league: nil))
        #expect(target(.PATCH, "/api/v1/leagues/office") == RESTTarget(route: .renameLeague(id: "office"), league: nil))
        #expect(
            target(.DELETE, "/api/v1/leagues/office") == RESTTarget(route: .deleteLeague(id: "office"), league: nil)
        )
        for route in [RESTRoute.listLeagues, .createLeague, .renameLeague(id: "x"), .deleteLeague(id: "x")] {
            #expect(route.isLeagueDirectory)
            #expect(!route.isWrite, "not a write of a league's data")
        }
        #expect(RESTRoute.createLeague.takesBody && RESTRoute.renameLeague(id: "x").takesBody)
        #expect(!RESTRoute.deleteLeague(id: "x").takesBody && !RESTRoute.listPlayers.isLeagueDirectory)
    }

    @Test("405 lists the methods of the league routes; unknown paths and empty segments are 404")
    func refusals() {
        #expect(target(.PUT, "/api/v1/leagues").route == .methodNotAllowed(allow: "GET, HEAD, POST"))
        #expect(target(.GET, "/api/v1/leagues/office").route == .methodNotAllowed(allow: "PATCH, DELETE"))
        #expect(target(.PUT, "/api/v1/leagues/office/players").route == .methodNotAllowed(allow: "GET, HEAD, POST"))
        #expect(target(.POST, "/api/v1/leagues/office/rankings").route == .methodNotAllowed(allow: "GET, HEAD"))
        #expect(target(.GET, "/api/v1/leagues/office/openapi.json").route == .unknownPath, "the document is global")
        #expect(target(.GET, "/api/v1/leagues//players").route == .unknownPath)
        #expect(target(.GET, "/api/v1/leagues/office/nope").route == .unknownPath)
        #expect(target(.GET, "/api/v1/leagues/office/players/p1/x").route == .unknownPath)
        #expect(target(.DELETE, "/api/v1/leagues/office/leagues/x").route == .unknownPath)
    }
}
