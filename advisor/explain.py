"""Plain-words explanations in English and Polish, built from the analysis.

Each reason is a key with parameters; the text is looked up per language, so both languages say
the same thing.
"""

from __future__ import annotations

import re

from .cards import Suit

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "only_card": "{card} is your only legal card.",
        "only_known_card": "{card} is the only one of your known cards you may play.",
        "outlook": "Your team expects {tricks:.1f} tricks and {points:+.0f} points net over {samples} simulated"
                   " deals.",
        "must_follow": "You must follow {suit}.",
        "best_card": "{card} is best: your team expects {tricks:.1f} tricks and {points:+.0f} points net"
                     " over {samples} simulated deals.",
        "next_card": "The next best, {card}, gives {tricks:.1f} tricks and {points:+.0f} points net.",
        "all_equal": "All your legal cards are worth the same here.",
        "equal_card": "{card} is just as good.",
        "lead_partner_ruff": "Partner has shown they are out of {suit}: they can trump {card} if they"
                             " still hold a spade.",
        "cash": "{card} is the highest card still out in {suit}: it takes the trick unless someone is"
                " out of {suit} and trumps it.",
        "cash_spade": "{card} is the highest spade still out: it takes the trick.",
        "cash_ruff_risk": "{card} is the highest card still out in {suit}, but {seat} has shown they are"
                          " out of {suit} and may trump it.",
        "lead_spade": "{card}: a spade lead draws spades from the other hands.",
        "lead_low": "{card} leads low in {suit} ({top} is still out), keeping your higher cards for later.",
        "lead_own_top": "{card} is your highest card in {suit}, though {top} is still out.",
        "lead_last": "{card} is your last card in {suit} ({top} is still out): after it you are out of {suit}.",
        "ruff": "You are out of {suit}: {card} trumps {best}.",
        "overruff": "You are out of {suit}: {card} trumps over {best}.",
        "discard": "You are out of {suit} and not trumping: {card} is a discard.",
        "partner_winning": "Partner's {best} is winning the trick: {card} stays under it.",
        "overtake": "{card} overtakes partner's {best}, to win the trick yourself.",
        "win_cheap": "{card} is the cheapest card that beats {best}.",
        "win_cheap_last": "You play last: {card} is the cheapest card that takes the trick.",
        "win_top": "{card} is the highest card still out in {suit}: it beats {best}, and only a trump can"
                   " beat it.",
        "win_top_spade": "{card} is the highest spade still out: it beats {best}, and nothing can beat it.",
        "win": "{card} beats {best}.",
        "duck": "{card} lets {best} win the trick, though you could beat it.",
        "cannot_beat_low": "Nothing you can play beats {best}: {card} is your lowest card.",
        "cannot_beat": "Nothing you can play beats {best}: you shed {card}.",
        "contrast_win": "Taking the trick with {card} instead is worth {gap:.0f} {gap_word} less.",
        "contrast_duck": "Letting the trick go with {card} instead is worth {gap:.0f} {gap_word} less.",
        "spades_unbroken": "Spades are not broken, so you cannot lead a spade yet.",
        "cover_partner_nil": "Partner bid nil: cover them — take the tricks partner might be forced to win"
                             " (nil survives {pct:.0f}% after {card}).",
        "own_nil": "You bid nil: stay under the winning card (nil survives {pct:.0f}% after {card}).",
        "nil_technique": "{card} follows nil technique (duck, shed high cards, cover): the simulation"
                         " puts it only {gap:.0f} {gap_word} below {top}, and it sees every card, so it"
                         " underrates the danger to a nil.",
        "tied_top": "{top} scores {gap:.1f} points more in the simulation, too little to tell them apart:"
                    " among cards this close, {card} is the one good play picks.",
        "attack_nil": "{seat} bid nil: try to make them take a trick (their nil survives {pct:.0f}%"
                      " after {card}).",
        "cover_partner_nil_any": "Partner bid nil: cover them — take the tricks partner might be forced"
                                 " to win.",
        "own_nil_any": "You bid nil: stay under the winning card.",
        "attack_nil_any": "{seat} bid nil: try to make them take a trick.",
        "cover_partner_nil_vs": "Partner bid nil: cover them — take the tricks partner might be forced"
                                " to win (nil survives {pct:.0f}% after {card}, {other_pct:.0f}% after"
                                " {other}, which is worth less overall).",
        "own_nil_vs": "You bid nil: stay under the winning card (nil survives {pct:.0f}% after {card},"
                      " {other_pct:.0f}% after {other}, which is worth less overall).",
        "attack_nil_vs": "{seat} bid nil: try to make them take a trick (their nil survives {pct:.0f}%"
                         " after {card}, {other_pct:.0f}% after {other}, which is worth less overall).",
        "bags_near": "Your team has {bags} {bags_word}: avoid overtricks, {left} more {cost_word} {penalty}"
                     " points.",
        "bags_near_bid": "Your team has {bags} {bags_word} ({left} more {cost_word} {penalty} points), but a bag"
                         " costs about {share:.0f} points in the long run wherever the limit falls:"
                         " the bid is not raised to dodge them, which would risk the contract.",
        "contract_need": "Your team needs {need} more {tricks_word} for its contract of {contract}.",
        "contract_made": "Your team's contract of {contract} is already made.",
        "set_them": "The opponents need {need} more {tricks_word} for {contract}: stopping them is worth"
                    " {value} points.",
        "bid_best": "Bid {bid}: about {points:+.0f} points expected; your team takes {tricks:.1f} tricks"
                    " on average over {samples} simulated deals ({solved} of them solved exactly).",
        "bid_rule": "{bid} is what counting the hand's tricks says (aces, guarded kings, spades,"
                    " ruffs, the nil rules); the simulation puts it only {gap:.0f} {gap_word} below {top},"
                    " and it plays every deal with all cards in view.",
        "bid_rule_level": "{bid} is what counting the hand's tricks says (aces, guarded kings, spades,"
                          " ruffs, the nil rules), and with the chance to win the game counted the"
                          " simulation rates it at least as high as {top}.",
        "bid_game_end": "With this score the game is what counts: {bid} wins it {pct:.1f}% of the time,"
                        " {other} (more points on average) {other_pct:.1f}%.",
        "bid_their_contract": "The opponents bid {contract} together at {score} points: making it"
                              " takes them to {reach} or more, and every trick your team takes beyond"
                              " {spare} sets them; the chances count on the tricks you leave them.",
        "play_game_end": "The game can end with this hand: {card} wins it {pct:.1f}% of the time,"
                         " {other} (more points on average) {other_pct:.1f}%.",
        "bid_partner": "Partner bid {bid}.",
        "bid_make": "Your team's contract of {contract} makes in about {pct:.0f}% of the simulated deals"
                    " (played double dummy).",
        "bid_make_estimated": "With partner's likely bid added, your team's contract makes in about"
                              " {pct:.0f}% of the simulated deals (played double dummy).",
        "hand_count": "Counting your hand alone (aces, guarded kings, spades, short suits to ruff) gives"
                      " about {tricks:.1f} tricks.",
        "bid_partner_unknown": "Partner has not bid yet; their bid is estimated from each simulated hand.",
        "hand_partial": "Your hand is only partly known ({known} of 13 cards): the missing cards ({missing})"
                        " are drawn from the unseen cards in each simulated deal. Add them (or re-shoot the"
                        " photo) for a surer answer.",
        "hand_partial_play": "Only {known} of the {left} cards you hold are known: the advice chooses among"
                             " those, with the others drawn from the unseen cards in each simulated deal. Add"
                             " the missing cards for a surer answer.",
        "hand_partial_play_forced": "Only {known} of the {left} cards you hold are known: the advice chooses"
                                    " among those, with the others drawn from the unseen cards in each"
                                    " simulated deal (in {pct:.0f}% of them a missing card would have to be"
                                    " played instead). Add the missing cards for a surer answer.",
        "hand_unseen": "Your hand is not in the record: this is the bid for a hand not looked at yet (any"
                       " 13 cards), from the bids and the score alone.",
        "nil_chance": "Nil would make {pct:.0f}% of the time ({points:+.0f} points expected).",
        "nil_kept_out": "Nil scores more on average here ({points:+.0f} points, game won {win:.0f}% of the time),"
                        " but it makes only {pct:.0f}% of the time: the advice bids nil from about {floor:.0f}%,"
                        " since a failed nil costs 100 points and often the partner's contract too. Bid nil"
                        " if you will take that risk.",
        "nil_best": "Your hand is weak enough for nil: it makes {pct:.0f}% of the time.",
        "nil_on_lead": "You lead the first trick, which makes a nil harder; the chance above counts it.",
        "partner_nil": "Partner bid nil, so your bid must carry the team: don't bid nil too.",
        "blind_nil_yes": "Blind nil: yes. Your team trails by {behind}; blind nil makes only about"
                         " {pct:.0f}% of the time, but it raises your chance to win the game from"
                         " {look}% to {blind}%. Decide before you look at your cards.",
        "blind_nil_no": "Blind nil is allowed (trailing by {behind}) but not advised: it makes about"
                        " {pct:.0f}% of the time, and your chance to win the game would be {blind}%"
                        " instead of {look}%.",
        "blind_nil_no_gain": "Blind nil is allowed (trailing by {behind}) but not advised: it makes about"
                             " {pct:.0f}% of the time and would not raise your chance to win the game"
                             " (about {look}% either way).",
        # the same, after a sentence that gave the blind nil's chance beside the partner's bid
        "blind_nil_yes_said": "Blind nil: yes. Your team trails by {behind}, and it raises your chance to win"
                              " the game from {look}% to {blind}%. Decide before you look at your cards.",
        "blind_nil_no_said": "Blind nil is allowed (trailing by {behind}) but not advised: your chance to win"
                             " the game would be {blind}% instead of {look}%.",
        "blind_nil_no_gain_said": "Blind nil is allowed (trailing by {behind}) but not advised: it would not"
                                  " raise your chance to win the game (about {look}% either way).",
        "blind_nil_decide": "Decide on blind nil before looking at your cards.",
        "blind_nil_too_late": "Trailing by {behind}, blind nil would have been worth it before looking at the"
                              " cards (game won {blind}% of the time against {look}%); with the cards"
                              " seen it can no longer be bid.",
        "blind_nil_looked": "If you have already looked at your cards, blind nil is no longer yours to bid:"
                            " then bid {bid} (game won {pct:.0f}% of the time).",
        "blind_nil_after_nil": "With partner's nil, nobody would cover a blind nil: after a partner's"
                               " nil (or blind nil) it makes only about {pct:.0f}% of the time.",
        "blind_nil_after_bid": "Partner bid {bid}: with that cover a blind nil makes about {pct:.0f}%"
                               " of the time.",
        "review_summary": "{seat_text}: {mistakes} {decisions_word} ({lost:.0f} {points_word}, about"
                          " {tricks:.1f} tricks).",
        "review_summary_points": "{seat_text}: {mistakes} {decisions_word} ({lost:.0f} {points_word}).",
        "review_smaller": "Smaller choices cost {lost:.0f} {points_word} more.",
        "review_nothing": "Nothing to review: no reviewed seat's hand is fully known (cards known:"
                          " {seats}). List all 13 cards of a seat, or give every card it played.",
        "review_nothing_yet": "Nothing to review yet: the record has no bid or card of {seats}.",
        "review_clean": "{seat_text}: no costly decisions found.",
        "review_clean_small": "{seat_text}: no costly decisions found; {lost:.0f} {points_word} lost in smaller"
                              " choices.",
        "review_better": "Better: {text}",
        "review_bid_make": "With {bid}, your team's contract makes in about {pct:.0f}% of the simulated deals.",
        "review_bid_make_best": "With {bid}, your team's contract makes in about {pct:.0f}% of the simulated"
                                " deals; with {best}, in {best_pct:.0f}%.",
        "review_bid_nil": "A nil here makes about {pct:.0f}% of the time.",
        "review_bid_blind_nil": "A blind nil makes about {pct:.0f}% of the time.",
        "review_bid_beside_nil": "Beside partner's nil, {bid} is worth about {points:+.0f} points.",
        "review_bid_beside_nil_best": "Beside partner's nil, {bid} is worth about {points:+.0f} points, {best}"
                                      " {best_points:+.0f}.",
        "review_nil": "{seat}'s nil makes about {pct:.0f}% of the time after {card}, {best_pct:.0f}% after {best}.",
    },
    "pl": {
        "only_card": "{card} to twoja jedyna dozwolona karta.",
        "only_known_card": "{card} to jedyna z twoich znanych kart, którą możesz zagrać.",
        "outlook": "Twoja para oczekuje {tricks:.1f} lewy i {points:+.0f} pkt przewagi w {samples} symulowanych"
                   " rozdaniach.",
        "must_follow": "Musisz dołożyć do koloru: {suit}.",
        "best_card": "Najlepsza jest {card}: twoja para oczekuje {tricks:.1f} lewy i {points:+.0f} pkt"
                     " przewagi w {samples} symulowanych rozdaniach.",
        "next_card": "Następna w kolejności, {card}, daje {tricks:.1f} lewy i {points:+.0f} pkt przewagi.",
        "all_equal": "Wszystkie twoje dozwolone karty są tu tyle samo warte.",
        "equal_card": "{card} jest równie dobra.",
        "lead_partner_ruff": "Partner pokazał brak w kolorze ({suit}): może przebić {card} pikiem,"
                             " jeśli jeszcze go ma.",
        "cash": "{card} to najwyższa karta w kolorze ({suit}), która jeszcze chodzi: bierze lewę,"
                " chyba że ktoś nie ma koloru i przebije.",
        "cash_spade": "{card} to najwyższy pik, który jeszcze chodzi: bierze lewę.",
        "cash_ruff_risk": "{card} to najwyższa karta w kolorze ({suit}), która jeszcze chodzi, ale {seat}"
                          " pokazał brak w tym kolorze i może przebić.",
        "lead_spade": "{card}: wyjście w pika ściąga piki z pozostałych rąk.",
        "lead_low": "{card} to niskie wyjście w kolorze ({suit}); {top} jeszcze chodzi, a wyższe karty"
                    " zostają na później.",
        "lead_own_top": "{card} to twoja najwyższa karta w kolorze ({suit}), choć {top} jeszcze chodzi.",
        "lead_last": "{card} to twoja ostatnia karta w kolorze ({suit}); {top} jeszcze chodzi, a potem nie"
                     " masz już tego koloru.",
        "ruff": "Nie masz koloru ({suit}): {card} przebija {best}.",
        "overruff": "Nie masz koloru ({suit}): {card} przebija wyżej niż {best}.",
        "discard": "Nie masz koloru ({suit}) i nie przebijasz: {card} to zrzutka.",
        "partner_winning": "{best} partnera bierze lewę: {card} zostaje pod nią.",
        "overtake": "{card} bije {best} partnera, żeby samemu wziąć lewę.",
        "win_cheap": "{card} to najtańsza karta, która bije {best}.",
        "win_cheap_last": "Grasz ostatni: {card} to najtańsza karta, która bierze lewę.",
        "win_top": "{card} to najwyższa karta w kolorze ({suit}), która jeszcze chodzi: bije {best}"
                   " i pobić ją może tylko atut.",
        "win_top_spade": "{card} to najwyższy pik, który jeszcze chodzi: bije {best} i nic go nie pobije.",
        "win": "{card} bije {best}.",
        "duck": "{card} oddaje lewę ({best} wygrywa), choć możesz ją pobić.",
        "cannot_beat_low": "Nic, czym możesz zagrać, nie pobije {best}: {card} to twoja najniższa karta.",
        "cannot_beat": "Nic, czym możesz zagrać, nie pobije {best}: pozbywasz się {card}.",
        "contrast_win": "Wzięcie lewy kartą {card} byłoby warte o {gap:.0f} {gap_word} mniej.",
        "contrast_duck": "Oddanie lewy kartą {card} byłoby warte o {gap:.0f} {gap_word} mniej.",
        "spades_unbroken": "Piki nie są jeszcze rozbite, więc nie możesz wyjść w pika.",
        "cover_partner_nil": "Partner zadeklarował zero: osłaniaj go — bierz lewy, które partner mógłby musieć"
                             " wziąć (zero przetrwa w {pct:.0f}% po {card}).",
        "own_nil": "Zadeklarowałeś zero: zagrywaj pod najwyższą kartę (zero przetrwa w {pct:.0f}% po {card}).",
        "nil_technique": "{card} to zagranie zgodne z techniką gry na zero (podkładanie, pozbywanie się"
                         " wysokich kart, osłona): symulacja ocenia ją tylko {gap:.0f} {gap_word} niżej niż"
                         " {top}, a widzi wszystkie karty, więc nie docenia zagrożenia dla zera.",
        "tied_top": "{top} wypada w symulacji o {gap:.1f} pkt lepiej, za mało, by je rozróżnić: spośród tak"
                    " bliskich kart dobra gra wybiera {card}.",
        "attack_nil": "{seat} zadeklarował zero: spróbuj zmusić go do wzięcia lewy (jego zero przetrwa w"
                      " {pct:.0f}% po {card}).",
        "cover_partner_nil_any": "Partner zadeklarował zero: osłaniaj go — bierz lewy, które partner mógłby"
                                 " musieć wziąć.",
        "own_nil_any": "Zadeklarowałeś zero: zagrywaj pod najwyższą kartę.",
        "attack_nil_any": "{seat} zadeklarował zero: spróbuj zmusić go do wzięcia lewy.",
        "cover_partner_nil_vs": "Partner zadeklarował zero: osłaniaj go — bierz lewy, które partner mógłby"
                                " musieć wziąć (zero przetrwa w {pct:.0f}% po {card}, w {other_pct:.0f}%"
                                " po {other}, która w sumie jest warta mniej).",
        "own_nil_vs": "Zadeklarowałeś zero: zagrywaj pod najwyższą kartę (zero przetrwa w {pct:.0f}% po {card},"
                      " w {other_pct:.0f}% po {other}, która w sumie jest warta mniej).",
        "attack_nil_vs": "{seat} zadeklarował zero: spróbuj zmusić go do wzięcia lewy (jego zero przetrwa w"
                         " {pct:.0f}% po {card}, w {other_pct:.0f}% po {other}, która w sumie jest warta"
                         " mniej).",
        "bags_near": "Twoja para ma {bags} {bags_word}: unikaj nadróbek, jeszcze {left} {cost_word} {penalty}"
                     " pkt.",
        "bags_near_bid": "Twoja para ma {bags} {bags_word} (jeszcze {left} {cost_word} {penalty} pkt), ale"
                         " worek kosztuje na dłuższą metę około {share:.0f} pkt, gdziekolwiek wypadnie"
                         " limit: deklaracji nie podnosimy, żeby ich uniknąć, bo to naraża kontrakt.",
        "contract_need": "Twojej parze brakuje {need} {tricks_word} do kontraktu {contract}.",
        "contract_made": "Kontrakt twojej pary ({contract}) jest już zrobiony.",
        "set_them": "Przeciwnikom brakuje {need} {tricks_word} do kontraktu {contract}: powstrzymanie ich jest"
                    " warte {value} pkt.",
        "bid_best": "Deklaruj {bid}: oczekiwane ok. {points:+.0f} pkt; twoja para bierze średnio"
                    " {tricks:.1f} lewy w {samples} symulowanych rozdaniach ({solved} z nich rozwiązanych"
                    " dokładnie).",
        "bid_rule": "{bid} wynika z policzenia lew w ręce (asy, kryte króle, piki, przebitki,"
                    " zasady gry na zero); symulacja ocenia to tylko {gap:.0f} {gap_word} niżej niż {top},"
                    " a rozgrywa każde rozdanie przy odkrytych kartach.",
        "bid_rule_level": "{bid} wynika z policzenia lew w ręce (asy, kryte króle, piki, przebitki,"
                          " zasady gry na zero), a licząc szanse na wygranie partii symulacja ocenia to"
                          " co najmniej tak wysoko jak {top}.",
        "bid_game_end": "Przy tym wyniku liczy się partia: z {bid} wygrywacie ją w {pct:.1f}%"
                        " przypadków, z {other} (więcej punktów średnio) w {other_pct:.1f}%.",
        "bid_their_contract": "Przeciwnicy zadeklarowali razem {contract} przy {score} pkt: jeśli je"
                              " ugrają, będą mieli co najmniej {reach}, a każda lewa waszej pary"
                              " ponad {spare} ich wpuszcza; szanse liczą lewy, które im zostawicie.",
        "play_game_end": "To rozdanie może zakończyć partię: z {card} wygrywacie ją w {pct:.1f}%"
                         " przypadków, z {other} (więcej punktów średnio) w {other_pct:.1f}%.",
        "bid_partner": "Partner zadeklarował {bid}.",
        "bid_make": "Kontrakt twojej pary ({contract}) wychodzi w ok. {pct:.0f}% symulowanych rozdań"
                    " (rozgrywanych przy odkrytych kartach).",
        "bid_make_estimated": "Z prawdopodobną deklaracją partnera kontrakt twojej pary wychodzi w ok."
                              " {pct:.0f}% symulowanych rozdań (rozgrywanych przy odkrytych kartach).",
        "hand_count": "Policzenie samej twojej ręki (asy, kryte króle, piki, krótkie kolory do przebijania)"
                      " daje ok. {tricks:.1f} lewy.",
        "bid_partner_unknown": "Partner jeszcze nie licytował; jego deklaracja jest szacowana z każdej"
                               " symulowanej ręki.",
        "hand_partial": "Twoja ręka jest znana tylko częściowo ({known} z 13 kart): brakujące karty"
                        " ({missing}) losuje się z niewidzianych kart w każdym symulowanym rozdaniu. Dopisz"
                        " je (albo zrób zdjęcie jeszcze raz), a odpowiedź będzie pewniejsza.",
        "hand_partial_play": "Znanych jest tylko {known} z {left} kart w twojej ręce: podpowiedź wybiera"
                             " spośród nich, a pozostałe losuje z niewidzianych kart w każdym symulowanym"
                             " rozdaniu. Dopisz brakujące karty, a odpowiedź będzie pewniejsza.",
        "hand_partial_play_forced": "Znanych jest tylko {known} z {left} kart w twojej ręce: podpowiedź"
                                    " wybiera spośród nich, a pozostałe losuje z niewidzianych kart w każdym"
                                    " symulowanym rozdaniu (w {pct:.0f}% z nich trzeba by zamiast tego zagrać"
                                    " brakującą kartę). Dopisz brakujące karty, a odpowiedź będzie pewniejsza.",
        "hand_unseen": "Twojej ręki nie ma w zapisie: to deklaracja dla ręki jeszcze nieoglądanej (dowolne"
                       " 13 kart), tylko na podstawie deklaracji i wyniku.",
        "nil_chance": "Zero udałoby się w {pct:.0f}% przypadków ({points:+.0f} pkt oczekiwane).",
        "nil_kept_out": "Zero daje tu średnio więcej ({points:+.0f} pkt, wygrana partii w {win:.0f}% przypadków),"
                        " ale udaje się tylko w {pct:.0f}% przypadków: rada zaleca zero od ok. {floor:.0f}%,"
                        " bo nieudane zero kosztuje 100 pkt, a często także kontrakt partnera. Deklaruj zero,"
                        " jeśli bierzesz to ryzyko na siebie.",
        "nil_best": "Twoja ręka jest dość słaba na zero: udaje się w {pct:.0f}% przypadków.",
        "nil_on_lead": "Wychodzisz do pierwszej lewy, co utrudnia grę na zero; podana szansa to uwzględnia.",
        "partner_nil": "Partner zadeklarował zero, więc twoja deklaracja musi nieść parę: nie deklaruj też zera.",
        "blind_nil_yes": "Zero w ciemno: tak. Twoja para przegrywa o {behind}; zero w ciemno udaje się tylko w ok."
                         " {pct:.0f}% przypadków, ale podnosi szansę na wygranie gry z {look}% do"
                         " {blind}%. Zdecyduj, zanim spojrzysz w karty.",
        "blind_nil_no": "Zero w ciemno jest dozwolone (strata {behind}), ale niezalecane: udaje się w ok."
                        " {pct:.0f}% przypadków, a szansa na wygranie gry wyniosłaby {blind}% zamiast"
                        " {look}%.",
        "blind_nil_no_gain": "Zero w ciemno jest dozwolone (strata {behind}), ale niezalecane: udaje się w ok."
                             " {pct:.0f}% przypadków i nie podniesie szansy na wygranie gry (ok. {look}%"
                             " tak czy inaczej).",
        "blind_nil_yes_said": "Zero w ciemno: tak. Twoja para przegrywa o {behind}, a ono podnosi szansę na"
                              " wygranie gry z {look}% do {blind}%. Zdecyduj, zanim spojrzysz w karty.",
        "blind_nil_no_said": "Zero w ciemno jest dozwolone (strata {behind}), ale niezalecane: szansa na"
                             " wygranie gry wyniosłaby {blind}% zamiast {look}%.",
        "blind_nil_no_gain_said": "Zero w ciemno jest dozwolone (strata {behind}), ale niezalecane: nie podniesie"
                                  " szansy na wygranie gry (ok. {look}% tak czy inaczej).",
        "blind_nil_decide": "O zerze w ciemno zdecyduj, zanim spojrzysz w karty.",
        "blind_nil_too_late": "Przy stracie {behind} zero w ciemno opłacałoby się przed spojrzeniem w karty"
                              " (wygrana partii w {blind}% przypadków zamiast {look}%); po odkryciu"
                              " kart jest już na nie za późno.",
        "blind_nil_looked": "Jeśli twoje karty są już odkryte, zera w ciemno zadeklarować nie można: zgłoś wtedy"
                            " {bid} (wygrana partii w {pct:.0f}% przypadków).",
        "blind_nil_after_nil": "Przy zerze partnera nikt nie osłoni zera w ciemno: po zerze (lub zerze w"
                               " ciemno) partnera udaje się ono tylko w ok. {pct:.0f}% przypadków.",
        "blind_nil_after_bid": "Partner zadeklarował {bid}: przy takiej osłonie zero w ciemno udaje się w ok."
                               " {pct:.0f}% przypadków.",
        "review_summary": "{seat_text}: {mistakes} {decisions_word} ({lost:.0f} {points_word}, ok."
                          " {tricks:.1f} lewy).",
        "review_summary_points": "{seat_text}: {mistakes} {decisions_word} ({lost:.0f} {points_word}).",
        "review_smaller": "Drobniejsze wybory kosztowały jeszcze {lost:.0f} {points_word}.",
        "review_nothing": "Nie ma czego oceniać: ręka żadnego z ocenianych graczy nie jest znana w całości"
                          " (znane karty: {seats}). Podaj wszystkie 13 kart gracza albo każdą zagraną przez"
                          " niego kartę.",
        "review_nothing_yet": "Na razie nie ma czego oceniać: w zapisie nie ma jeszcze deklaracji ani kart"
                              " graczy: {seats}.",
        "review_clean": "{seat_text}: nie znaleziono kosztownych decyzji.",
        "review_clean_small": "{seat_text}: nie znaleziono kosztownych decyzji; drobniejsze wybory"
                              " kosztowały razem {lost:.0f} {points_word}.",
        "review_better": "Lepiej: {text}",
        "review_bid_make": "Przy {bid} kontrakt twojej pary wychodzi w ok. {pct:.0f}% symulowanych rozdań.",
        "review_bid_make_best": "Przy {bid} kontrakt twojej pary wychodzi w ok. {pct:.0f}% symulowanych"
                                " rozdań; przy {best} w {best_pct:.0f}%.",
        "review_bid_nil": "Zero udaje się tu w ok. {pct:.0f}% przypadków.",
        "review_bid_blind_nil": "Zero w ciemno udaje się w ok. {pct:.0f}% przypadków.",
        "review_bid_beside_nil": "Przy zerze partnera {bid} daje średnio {points:+.0f} pkt.",
        "review_bid_beside_nil_best": "Przy zerze partnera {bid} daje średnio {points:+.0f} pkt, a {best}"
                                      " {best_points:+.0f} pkt.",
        "review_nil": "Zero gracza {seat} udaje się po {card} w ok. {pct:.0f}% przypadków, po {best} w {best_pct:.0f}%.",
    },
}

SUIT_WORDS = {"en": lambda s: Suit(s).english, "pl": lambda s: Suit(s).polish}


# Words whose form follows a number: (the placeholder, the parameter holding the number) -> forms,
# in English (one, more) and in Polish (one; 2-4, except 12-14; the rest), in the case the texts
# use them in ("brakuje 1 lewy", "brakuje 2 lew").
COUNTED = {
    ("tricks_word", "need"): {"en": ("trick", "tricks"), "pl": ("lewy", "lew", "lew")},
    ("decisions_word", "mistakes"): {"en": ("costly decision", "costly decisions"),
                                     "pl": ("kosztowna decyzja", "kosztowne decyzje", "kosztownych decyzji")},
    ("points_word", "lost"): {"en": ("point", "points"), "pl": ("pkt", "pkt", "pkt")},
    ("gap_word", "gap"): {"en": ("point", "points"), "pl": ("pkt", "pkt", "pkt")},  # "only 1 point below"
    ("bags_word", "bags"): {"en": ("bag", "bags"), "pl": ("worek", "worki", "worków")},
    # the verb after the bags still to come ("1 more costs", "jeszcze 2 kosztują")
    ("cost_word", "left"): {"en": ("costs", "cost"), "pl": ("kosztuje", "kosztują", "kosztuje")},
}


def counted(lang: str, n: int, forms: dict) -> str:
    """The form of a word that goes with the number ``n``.

    >>> [counted("pl", n, COUNTED[("decisions_word", "mistakes")]) for n in (1, 3, 5, 12, 22)]
    ['kosztowna decyzja', 'kosztowne decyzje', 'kosztownych decyzji', 'kosztownych decyzji', 'kosztowne decyzje']
    """
    words = forms.get(lang, forms["en"])
    if n == 1:
        return words[0]
    if len(words) == 2:
        return words[1]
    return words[1] if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else words[2]


# A bid of 0 is a nil: the texts name it so ("Bid nil: …", "Partner bid nil.", "Deklaruj zero: …").
NIL_WORD = {"en": "nil", "pl": "zero"}


def say(lang: str, key: str, **params) -> str:
    """``key``'s text in ``lang`` with ``params`` filled in.

    >>> say("en", "bid_partner", bid=0), say("pl", "bid_partner", bid=0), say("en", "bid_partner", bid=3)
    ('Partner bid nil.', 'Partner zadeklarował zero.', 'Partner bid 3.')
    """
    table = TEXTS.get(lang, TEXTS["en"])
    for name in ("bid", "best", "other"):  # a bid of 0 (never a card, which is a string)
        if type(params.get(name)) is int and params[name] == 0:
            params[name] = NIL_WORD.get(lang, NIL_WORD["en"])
    for (word, number), forms in COUNTED.items():
        if number in params and "{" + word + "}" in table[key]:
            params[word] = counted(lang, round(params[number]), forms)  # as the text shows it
    if "suit" in params and isinstance(params["suit"], int):
        params["suit"] = SUIT_WORDS.get(lang, SUIT_WORDS["en"])(params["suit"])
    text = table[key].format(**params)
    return decimal_commas(lang, text[:1].upper() + text[1:])  # "Nil is what …" for "{bid} is what …"


def decimal_commas(lang: str, text: str) -> str:
    """``text`` with its decimal points as ``lang`` writes them: a comma in Polish (5,4 lewy; 12,5%).

    >>> decimal_commas("pl", "QH (0.45), 7.9 lewy"), decimal_commas("en", "7.9 tricks")
    ('QH (0,45), 7,9 lewy', '7.9 tricks')
    """
    return re.sub(r"(?<=\d)\.(?=\d)", ",", text) if lang == "pl" else text


def join(lang: str, reasons: list[tuple[str, dict]]) -> str:
    return " ".join(say(lang, key, **params) for key, params in reasons)
