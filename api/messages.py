"""The live game's refusals in plain words, per language (the API's 409s; ``?lang=pl``)."""

from __future__ import annotations

from typing import Any

from advisor.refusals import words

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "hand_not_over": "the hand is not over yet: the next hand starts after 13 tricks",
        "game_over": "the game is over (winner: {winner}); create a new game",
        "game_drawn": "the game is over (a draw); create a new game",
        "nothing_to_undo": "nothing to undo: the game has no events",
        "no_decision": "the hand is over: no decision to advise on",
        "no_question": "no open question {id}",
        "which_card": "question {id} is about {cards}: say which card with 'card'",
        "tracker_busy": "{what}: the game's camera tracker was changed by other requests {times} times"
                        " meanwhile; send it again",
        "frame_not_counted": "frame not counted",
        "question_open": "question {id} stays open",
        "question_open_recorded": "question {id} stays open (its answer is recorded)",
        "illegal": "{headline}: {reason}",
        "no_game": "no game with that id",
        "advice_timeout": "the advisor did not answer within {seconds} s; try a smaller time_budget",
        "advice_worker_died": "the advice worker stopped unexpectedly; try again",
        "token": "missing or wrong access token (send 'Authorization: Bearer <token>', header X-Piki-Token,"
                 " or ?token=)",
        "stored_meanwhile": "another request changed this game at the same moment; reload the game and"
                            " try again",
        # uploads refused before the detector
        "not_an_image": "not an image: send a JPEG, PNG, WebP or HEIC file",
        "as_detector_says": "{problem}",
        "upload_empty": "the image is empty",
        "upload_too_big": "the image is {size} bytes; at most {limit} are accepted",
        "upload_larger": "the image is larger than {limit} bytes",
        "bomb": "the image has too many pixels (decompression bomb?)",
        "unreadable_upload": "unreadable image: {problem}",
        "format_refused": "{format} images are not accepted: send JPEG, PNG, WebP or HEIC",
        "no_pixels": "the image has no pixels",
        "upload_too_many_pixels": "the image is {w}x{h} pixels; at most {side} per side and {limit}"
                                  " megapixels",
    },
    "pl": {
        "hand_not_over": "rozdanie jeszcze trwa: następne zaczyna się po 13 lewach",
        "game_over": "partia się skończyła (wygrywa {winner}); załóż nową grę",
        "game_drawn": "partia się skończyła (remis); załóż nową grę",
        "nothing_to_undo": "nie ma czego cofnąć: w grze nie ma jeszcze żadnych zdarzeń",
        "no_decision": "rozdanie się skończyło: nie ma decyzji, w której można doradzić",
        "no_question": "nie ma otwartego pytania {id}",
        "which_card": "pytanie {id} dotyczy kart {cards}: podaj, którą, w polu 'card'",
        "tracker_busy": "{what}: w międzyczasie inne żądania zmieniły śledzenie kamery tej gry {times}"
                        " razy; wyślij jeszcze raz",
        "frame_not_counted": "klatka nie została uwzględniona",
        "question_open": "pytanie {id} pozostaje otwarte",
        "question_open_recorded": "pytanie {id} pozostaje otwarte (odpowiedź jest zapisana)",
        "illegal": "{headline}: {reason}",
        "no_game": "nie ma gry o takim identyfikatorze",
        "advice_timeout": "doradca nie odpowiedział w ciągu {seconds} s; spróbuj z mniejszym time_budget",
        "advice_worker_died": "proces doradcy nieoczekiwanie się zatrzymał; spróbuj jeszcze raz",
        "token": "brak tokenu dostępu albo jest błędny (wyślij 'Authorization: Bearer <token>', nagłówek"
                 " X-Piki-Token albo ?token=)",
        "stored_meanwhile": "inne żądanie zmieniło tę grę w tej samej chwili; wczytaj grę jeszcze raz i"
                            " spróbuj ponownie",
        "not_an_image": "to nie jest obraz: wyślij plik JPEG, PNG, WebP albo HEIC",
        "as_detector_says": "{problem}",
        "upload_empty": "obraz jest pusty",
        "upload_too_big": "obraz ma {size} bajtów, a przyjmujemy najwyżej {limit}",
        "upload_larger": "obraz ma ponad {limit} bajtów",
        "bomb": "obraz ma za dużo pikseli (bomba dekompresyjna?)",
        "unreadable_upload": "nieczytelny obraz: {problem}",
        "format_refused": "obrazy {format} nie są przyjmowane: wyślij JPEG, PNG, WebP albo HEIC",
        "no_pixels": "obraz nie ma pikseli",
        "upload_too_many_pixels": "obraz ma {w}x{h} pikseli, a przyjmujemy najwyżej {side} na bok i"
                                  " {limit} megapikseli",
    },
}


def message(lang: str, code: str, **params: Any) -> str:
    """Message ``code`` in ``lang`` (English for a language it lacks); a parameter given as
    ``(code, params)`` is a message itself, lists are joined with commas.

    >>> message("pl", "no_question", id=4)
    'nie ma otwartego pytania 4'
    """
    table = MESSAGES.get(lang, MESSAGES["en"])

    def value(v: Any) -> str:
        if isinstance(v, tuple):
            return message(lang, v[0], **v[1])
        if isinstance(v, BaseException):  # another part's error, in its own words where it has them
            return words(v, lang)
        if isinstance(v, list):
            return ", ".join(str(x) for x in v)
        return str(v)
    return table[code].format(**{k: value(v) for k, v in params.items()})


class WordedProblem(Exception):
    """A refusal named by a code of :data:`MESSAGES` and its parameters: ``str()`` is the English
    words, ``text(lang)`` another language's."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        return message(lang, self.code, **self.params)


def request_lang(query: Any) -> str:
    """The language a request asks its answers in: ``?lang=pl``, else English."""
    return "pl" if query.get("lang") == "pl" else "en"
