"""Ratings of accounts and bots per game and preset, their history, leaderboards and profiles; a
game's result rates its players in the transaction that stores it (`rate_game_in`)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import delete, insert, select, update

from .. import ratings as rating_model
from ..schema import (
    accounts,
    games,
    rating_history,
    ratings,
    seats,
    tables,
)
from .engine import Repository

__all__ = ["RatingsRepo", "forget_player", "rate_game_in", "rating_entry"]


def rate_game_in(conn: Any, game_id: int, closed_by: frozenset[int] = frozenset()) -> bool:
    """Inside a transaction: move the ratings of the players of a game of a rated table, once:
    a finished game by its result, or (`closed_by`: the seats of whoever closed the table) one
    closed before its end. `rated_at` is set by a compare-and-set first, so a finish processed
    twice (a retry, a worker adopting the table after a crash) finds it set and changes nothing.

    Whoever left the game ranks last (docs/architecture.md, "Leaving a rated game"): a seat a bot
    took over from its person (the seat keeps the account), and the seats of whoever closed it."""
    g = conn.execute(
        select(games, tables.c.game, tables.c.preset, tables.c.rated)
        .join(tables, tables.c.code == games.c.table_code)
        .where(games.c.id == game_id)
    ).first()
    if g is None or not g.rated or g.rated_at is not None:
        return False
    if g.result is None and not closed_by:
        return False
    now = time.time()
    res = conn.execute(
        update(games).where(games.c.id == game_id, games.c.rated_at.is_(None)).values(rated_at=now)
    )
    if res.rowcount != 1:
        return False
    seat_rows = {
        r.seat: r for r in conn.execute(select(seats).where(seats.c.table_code == g.table_code))
    }
    result = dict(g.result) if g.result is not None else None
    placed: dict[str, int] = {}
    won: dict[str, float] = {}
    left: set[str] = set()
    winners = list(result.get("winners") or []) if result is not None else []
    for index, seat in enumerate(g.seats):
        row = seat_rows.get(seat)
        player = None if row is None else rating_model.player_of_seat(row.account_id, row.bot)
        if row is None or player is None:
            continue  # a guest (a seat freed and taken again unrated): not rated
        if rating_model.left_the_game(row.account_id, row.bot) or seat in closed_by:
            left.add(player)
            continue
        if result is None:
            placed[player] = 1  # a game closed before its end: those who stayed share first
            continue
        if index >= len(result["ranks"]):
            continue
        rank = int(result["ranks"][index])
        placed[player] = min(placed.get(player, rank), rank)  # a bot in two seats: its best
        if index in winners:
            won[player] = won.get(player, 0.0) + 1.0 / len(winners)
    ranks = rating_model.ranks_with_leavers(placed, left)
    if result is None:
        stayed = [p for p in ranks if p not in left]
        won = {p: 1.0 / len(stayed) for p in stayed}
    for player in left:
        won.pop(player, None)  # a bot standing in may have won: the one who left did not
    preset = g.preset or ""
    before: dict[str, rating_model.Rating] = {}
    counts: dict[str, tuple[int, float]] = {}
    for player in ranks:
        r = conn.execute(
            select(ratings).where(
                ratings.c.player == player, ratings.c.game == g.game, ratings.c.preset == preset
            )
        ).first()
        if r is None:
            before[player] = rating_model.fresh()
        else:
            before[player] = rating_model.Rating(float(r.mu), float(r.sigma))
            counts[player] = (int(r.games), float(r.wins))
    after = rating_model.rate(before, ranks)
    for player, new in after.items():
        played, wins = counts.get(player, (0, 0.0))
        values = {
            "mu": new.mu,
            "sigma": new.sigma,
            "games": played + 1,
            "wins": wins + won.get(player, 0.0),
            "updated_at": now,
        }
        if player in counts:
            conn.execute(
                update(ratings)
                .where(
                    ratings.c.player == player, ratings.c.game == g.game, ratings.c.preset == preset
                )
                .values(**values)
            )
        else:
            conn.execute(
                insert(ratings).values(player=player, game=g.game, preset=preset, **values)
            )
        conn.execute(
            insert(rating_history).values(
                game_id=game_id,
                player=player,
                game=g.game,
                preset=preset,
                rank=ranks[player],
                mu=new.mu,
                sigma=new.sigma,
                at=now,
            )
        )
    return True


def rating_entry(r: Any, name: str) -> dict[str, Any]:
    player = str(r.player)
    return {
        "player": player,
        "name": name,
        "kind": "account" if player.startswith("a:") else "bot",
        "game": r.game,
        "preset": r.preset,
        "mu": float(r.mu),
        "sigma": float(r.sigma),
        "ordinal": rating_model.ordinal(float(r.mu), float(r.sigma)),
        "games": int(r.games),
        "wins": float(r.wins),
        "win_rate": float(r.wins) / int(r.games) if r.games else 0.0,
    }


def forget_player(conn: Any, player: str) -> None:
    """A player's ratings gone (an account deleted); its history rows stay with their games."""
    conn.execute(delete(ratings).where(ratings.c.player == player))


class RatingsRepo(Repository):
    """Ratings, leaderboards and profiles (see the module doc)."""

    def rate_game(self, game_id: int) -> bool:
        """Move the ratings by a finished game of a rated table, if not done already (whether it
        was done now). `finish_game` does it; this is for a game finished before, and tests."""
        with self.engine.begin() as conn:
            return rate_game_in(conn, game_id)

    def _names(self, conn: Any, players: list[str]) -> dict[str, str]:
        ids = [int(p[2:]) for p in players if p.startswith("a:")]
        out = {p: p[4:] + " bot" for p in players if p.startswith("bot:")}
        if ids:
            q = select(accounts.c.id, accounts.c.username).where(
                accounts.c.id.in_(ids), accounts.c.deleted_at.is_(None)
            )
            for r in conn.execute(q):
                out[f"a:{r.id}"] = str(r.username)
        return out

    def leaderboard(self, game: str, preset: str, limit: int = 100) -> list[dict[str, Any]]:
        """The rated players of a game and preset, best first (by ordinal: mu - 3 sigma)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings).where(ratings.c.game == game, ratings.c.preset == preset)
            ).all()
            names = self._names(conn, [r.player for r in rows])
        out = []
        for r in rows:
            if r.player not in names:
                continue  # a deleted account
            out.append(rating_entry(r, names[r.player]))
        out.sort(key=lambda e: (-e["ordinal"], e["name"]))
        for rank, e in enumerate(out[:limit], 1):
            e["rank"] = rank
        return out[:limit]

    def profile(self, player: str, games_limit: int = 100) -> dict[str, Any] | None:
        """A player's ratings, rating history, and finished games (an account's: every game it
        sat at; a bot's: its rated games); None for no such player."""
        with self.engine.connect() as conn:
            name = self._names(conn, [player]).get(player)
            if name is None:
                return None
            rated = conn.execute(
                select(ratings).where(ratings.c.player == player).order_by(ratings.c.game)
            ).all()
            if player.startswith("bot:") and not rated:
                return None  # a bot kind is a player once it has played a rated game
            history = conn.execute(
                select(rating_history)
                .where(rating_history.c.player == player)
                .order_by(rating_history.c.at, rating_history.c.id)
            ).all()
            q = (
                select(games, tables.c.game, tables.c.preset, tables.c.rated)
                .join(tables, tables.c.code == games.c.table_code)
                .where(games.c.finished_at.is_not(None))
            )
            mine: dict[int, set[int]] = {}  # game id -> the player's seats in it
            if player.startswith("a:"):
                account_id = int(player[2:])
                for r in conn.execute(
                    select(seats.c.table_code, seats.c.seat).where(seats.c.account_id == account_id)
                ):
                    for gid in conn.execute(
                        select(games.c.id).where(games.c.table_code == r.table_code)
                    ).scalars():
                        mine.setdefault(int(gid), set()).add(int(r.seat))
            else:
                for h in history:
                    mine.setdefault(int(h.game_id), set())
                kind = player[4:]
                if mine:
                    for b in conn.execute(
                        select(seats.c.seat, seats.c.bot, games.c.id)
                        .join(games, games.c.table_code == seats.c.table_code)
                        .where(games.c.id.in_(list(mine)))
                    ):
                        if b.bot is not None and b.bot.split(":")[0] == kind:
                            mine[int(b.id)].add(int(b.seat))
            found = conn.execute(
                q.where(games.c.id.in_(list(mine) or [-1])).order_by(games.c.finished_at.desc())
            ).all()
            codes = {g.table_code for g in found}
            seat_names: dict[tuple[str, int], str | None] = {}
            if codes:
                for s in conn.execute(select(seats).where(seats.c.table_code.in_(codes))):
                    seat_names[(s.table_code, s.seat)] = s.name
        played: list[dict[str, Any]] = []
        by_game: dict[str, dict[str, float]] = {}
        for g in found:
            result = dict(g.result or {})
            indexes = [i for i, s in enumerate(g.seats) if s in mine.get(g.id, set())]
            if not indexes:
                continue
            winners = set(result.get("winners") or [])
            won = any(i in winners for i in indexes)
            ranks = result.get("ranks") or []
            rank = min((int(ranks[i]) for i in indexes if i < len(ranks)), default=None)
            tally = by_game.setdefault(g.game, {"played": 0, "won": 0})
            tally["played"] += 1
            tally["won"] += int(won)
            if len(played) < games_limit:
                played.append(
                    {
                        "id": g.id,
                        "table": g.table_code,
                        "number": g.number,
                        "game": g.game,
                        "preset": g.preset,
                        "rated": bool(g.rated),
                        "players": [seat_names.get((g.table_code, s)) for s in g.seats],
                        "won": won,
                        "rank": rank,
                        "finished_at": g.finished_at,
                        "review": f"/review/{g.id}",
                        "record": f"/api/history/{g.id}/record",
                    }
                )
        win_rate = {
            game: {
                "played": int(t["played"]),
                "won": int(t["won"]),
                "rate": t["won"] / t["played"] if t["played"] else 0.0,
            }
            for game, t in sorted(by_game.items())
        }
        return {
            "player": player,
            "name": name,
            "kind": "account" if player.startswith("a:") else "bot",
            "ratings": [rating_entry(r, name) for r in rated],
            "history": [
                {
                    "game_id": h.game_id,
                    "game": h.game,
                    "preset": h.preset,
                    "rank": h.rank,
                    "mu": h.mu,
                    "sigma": h.sigma,
                    "ordinal": rating_model.ordinal(h.mu, h.sigma),
                    "at": h.at,
                }
                for h in history
            ],
            "games": played,
            "win_rate": win_rate,
        }

    def mu_of(self, account_id: int, game: str, preset: str) -> float | None:
        """An account's rating's mean in a game and preset (None: not rated there yet)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(ratings.c.mu).where(
                    ratings.c.player == f"a:{account_id}",
                    ratings.c.game == game,
                    ratings.c.preset == preset,
                )
            ).scalar()
        return None if found is None else float(found)
