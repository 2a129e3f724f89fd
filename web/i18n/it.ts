// Italiano.
import type { Dictionary } from './en';

const it = {
  'app.loading': 'Caricamento...',
  'app.skipToContent': 'Vai al contenuto principale',
  'app.opensInNewTab': '(si apre in una nuova scheda)',

  'nav.label': 'Navigazione principale',
  'nav.home': 'Home',
  'nav.contact': 'Contatti',
  'nav.plans': 'Piani',
  'nav.menu': 'Menu',
  'nav.language': 'Lingua',
  'nav.homeLink': '{site}, pagina iniziale',

  'footer.description':
    'Trova farmacie, ristoranti, banche, parchi e molti altri luoghi vicino a te, ' +
    'con orari e indicazioni, basati su dati cartografici aperti.',
  'footer.follow': 'Seguici',
  'footer.followOn': 'Seguici su {network}',
  'footer.quickLinks': 'Link rapidi',
  'footer.legal': 'Note legali',
  'footer.privacy': 'Informativa sulla privacy',
  'footer.terms': 'Termini di servizio',
  'legal.privacyDescription': 'Che cosa conserva questo sito sui visitatori, e che cosa no.',
  'legal.termsDescription': 'I termini d’uso di questo sito e delle informazioni sui luoghi.',
  'legal.privacyDefault':
    'Questo sito ti aiuta a trovare luoghi vicino a te. Questa pagina spiega che cosa conserva su di ' +
    'te e che cosa no.\n' +
    '\n' +
    '## Che cosa conserva il sito\n' +
    '- I messaggi che invii con il modulo di contatto: nome, indirizzo email, oggetto e messaggio, ' +
    'per poterti rispondere. Restano finché un amministratore non li elimina.\n' +
    "- Il conteggio delle visite: quante visite riceve il sito ogni giorno, senza nulla su chi l'ha " +
    'visitato.\n' +
    '- Statistiche di ricerca: le categorie cercate, i nomi delle città digitati e la zona di ogni ' +
    'ricerca arrotondata a circa 1 km, contate per giorno e mai collegate a te.\n' +
    '\n' +
    '## Che cosa non conserva\n' +
    '- Nessun cookie di tracciamento o pubblicitario, e nessuno strumento di analisi di altre ' +
    'aziende. Solo gli amministratori ricevono un cookie, per restare collegati.\n' +
    '- La tua posizione: se lo consenti, il browser la invia con una ricerca per trovare i luoghi ' +
    'vicini. Non viene conservata, se non arrotondata a circa 1 km nelle statistiche qui sopra.\n' +
    '\n' +
    '## Buono a sapersi\n' +
    '- Il tuo browser ricorda la lingua che hai scelto, sul tuo dispositivo.\n' +
    '- Come ogni server web, quello di questo sito registra le richieste (indirizzo IP, pagina, ora) ' +
    'in log tecnici che servono a farlo funzionare in sicurezza, conservati solo per il tempo ' +
    'necessario.\n' +
    '- La mappa può essere disegnata da un servizio di mappe esterno, che riceve quindi il tuo ' +
    'indirizzo IP come qualsiasi sito che visiti. Pulsanti come Vedi sulla mappa e Vista stradale ' +
    'aprono altri servizi solo quando li premi.\n' +
    '\n' +
    '## I tuoi diritti\n' +
    'Per sapere che cosa conserva il sito su di te, o per far eliminare i tuoi messaggi, scrivici ' +
    'dalla pagina dei contatti.',
  'legal.termsDefault':
    'Usando questo sito accetti questi termini.\n' +
    '\n' +
    '## Le informazioni\n' +
    'Le informazioni sui luoghi provengono dai collaboratori di OpenStreetMap e dalle voci inserite ' +
    'dal sito stesso. Possono essere incomplete o non aggiornate: orari, indirizzi e numeri di ' +
    'telefono cambiano, quindi verifica con il luogo prima di andarci. Il sito non ne garantisce ' +
    "l'esattezza.\n" +
    '\n' +
    '## Uso corretto\n' +
    'Usa il sito per le tue ricerche. Non sovraccaricarlo con richieste automatiche e non usarlo per ' +
    'scopi illeciti.\n' +
    '\n' +
    '## Altri servizi\n' +
    'Link e pulsanti (mappe, immagini stradali, siti web dei luoghi, annunci sponsorizzati) portano ' +
    'ad altri servizi, con i loro termini.\n' +
    '\n' +
    '## Dati della mappa\n' +
    'Dati della mappa e dei luoghi © collaboratori di OpenStreetMap, disponibili con licenza Open ' +
    "Database License. L'informativa sulla privacy del sito descrive come tratta i dati personali.\n" +
    '\n' +
    '## Modifiche\n' +
    'Questi termini possono cambiare; vale la versione presente in questa pagina.',
  'footer.copyright': '© {year} {site}. Tutti i diritti riservati.',
  'footer.mapData':
    'Dati di mappe e luoghi © contributori di OpenStreetMap, disponibili con licenza Open Database License.',

  'hero.defaultTitle': 'Trova servizi vicino a te',
  'hero.subtitle': 'Farmacie, ristoranti, banche, parchi e altro intorno a te, su una mappa e in un elenco.',
  'hero.cta': 'Inizia a cercare',

  'ads.carouselLabel': 'Offerte in evidenza',
  'ads.slide': 'Diapositiva {current} di {total}',
  'ads.previous': 'Diapositiva precedente',
  'ads.next': 'Diapositiva successiva',
  'ads.goTo': 'Mostra la diapositiva {number}',
  'ads.pause': 'Metti in pausa la presentazione',
  'ads.play': 'Riprendi la presentazione',
  'ads.untitled': 'Annuncio sponsorizzato',
  'ads.imageUnavailable': 'Immagine non disponibile',
  'ads.sponsored': 'Annunci sponsorizzati',

  'video.label': 'Video in evidenza',
  'video.mute': 'Disattiva audio',
  'video.unmute': 'Attiva audio',
  'video.play': 'Riproduci video',
  'video.pause': 'Metti in pausa il video',
  'video.fullscreen': 'Schermo intero',
  'video.exitFullscreen': 'Esci da schermo intero',

  'embed.openSite': 'Apri {site} in una nuova scheda',
  'locator.heading': 'Cerca luoghi vicini',
  'locator.intro': 'Scegli una o più categorie, poi cerca intorno alla tua posizione o in una città.',
  'locator.refreshSettings': 'Aggiorna impostazioni',
  'locator.categories': 'Categorie',
  'locator.selectedCount': '{count, plural, one {# selezionata} other {# selezionate}}',
  'locator.clearCategories': 'Cancella selezione',
  'locator.moreCategories': 'Altre categorie',
  'locator.fewerCategories': 'Meno categorie',
  'locator.options': 'Opzioni di ricerca',
  'locator.openNow': 'Solo aperti ora',
  'locator.wheelchair': 'Solo accessibili in sedia a rotelle',
  'locator.wheelchairLimited': 'Includi accesso limitato in sedia a rotelle',
  'locator.travel': 'Come ci arrivi',
  'locator.travelHint': 'Serve a sapere se i luoghi saranno ancora aperti al tuo arrivo.',
  'locator.travel.none': 'Non indicato',
  'locator.travel.walk': 'A piedi',
  'locator.travel.bike': 'In bici',
  'locator.travel.drive': 'In auto',
  'locator.name': 'Nome',
  'locator.nameHint': 'Parte del nome di un luogo, ad es. «starb» per Starbucks. Senza categorie, si cerca in tutte.',
  'locator.share': 'Condividi questa ricerca',
  'locator.linkCopied': 'Link copiato',
  'locator.city': 'Città',
  'locator.cityHint': 'Lascia vuoto per cercare intorno alla tua posizione.',
  'locator.cityPlaceholder': 'es. {city}',
  'locator.search': 'Cerca vicino a me',
  'locator.searching': 'Ricerca in corso...',
  'locator.selectCategory': 'Seleziona almeno una categoria',

  'location.locating': 'Ricerca della tua posizione...',
  'location.found': 'Uso la tua posizione attuale.',
  'location.denied': 'Accesso alla posizione negato. Uso la posizione predefinita.',
  'location.insecure': 'Uso la posizione predefinita. Per il GPS, accedi tramite localhost o attiva HTTPS.',
  'location.needed': 'Accesso alla posizione negato. Attiva i servizi di localizzazione.',

  'search.retrying': 'Servizio temporaneamente non disponibile. Nuovo tentativo...',
  'search.unavailable': 'Servizio temporaneamente non disponibile. Riprova più tardi.',
  'search.cityNotFound': 'Città non trovata. Controlla come è scritta o lascia vuoto il campo.',

  'results.heading': 'Risultati',
  'results.count.one': '{count} luogo trovato',
  'results.count.other': '{count} luoghi trovati',
  'results.showing': 'Risultati 1-{shown} di {total}',
  'results.noneHint': 'Nessun risultato trovato. Prova un’altra categoria o posizione.',
  'results.noCoverage': 'Questo sito non ha ancora luoghi da queste parti: i suoi dati non coprono questa zona.',
  'results.prompt': 'Scegli le categorie e premi Cerca vicino a me per vedere i luoghi intorno a te.',
  'results.loading': 'Caricamento dei risultati...',
  'results.loadMore': 'Carica altri',

  'place.notFound': 'Luogo non trovato',
  'place.notFoundText':
    'Questo luogo non è nel nostro indice: potrebbe aver chiuso o essere stato rimosso da OpenStreetMap.',
  'place.loadError': 'Impossibile caricare questo luogo',
  'place.loadErrorText': 'Riprova tra un momento.',
  'place.back': 'Torna alla ricerca',
  'browse.heading': 'Esplora i luoghi per città',
  'browse.intro': 'I luoghi che conosciamo, città per città e per tipo.',
  'group.title': '{category} a {town}',
  'group.description': '{category} a {town}: indirizzi, numeri di telefono e orari, con una pagina per ogni luogo.',
  'group.notFound': 'Niente in elenco qui',
  'group.notFoundText': 'Non abbiamo luoghi di questo tipo in questa città.',
  'group.unnamed': 'Luogo senza nome',
  'place.hours': 'Orari di apertura',
  'place.hoursUnknown': 'Orari sconosciuti',
  'place.closedAllDay': 'Chiuso',
  'place.open24': 'Aperto 24 ore',
  'place.today': '(oggi)',
  'place.opensAt': 'Apre alle {time}',
  'place.opensOn': 'Apre {day} alle {time}',
  'place.closesIn': '{minutes, plural, one {Chiude tra # minuto} other {Chiude tra # minuti}}',
  'place.closesAt': 'Chiude alle {time}',
  'place.localTime': 'Gli orari sono nell’ora locale del luogo ({zone}).',
  'place.address': 'Indirizzo',
  'place.phone': 'Telefono',
  'place.access': 'Accesso in sedia a rotelle',
  'place.map': 'Mappa di {name}',
  'place.links': 'Indicazioni e link',
  'place.directionsOsm': 'Indicazioni (OpenStreetMap)',
  'place.directionsGoogle': 'Indicazioni (Google Maps)',
  'place.improve': 'Migliora questo luogo su OpenStreetMap',
  'place.description': '{category}, {address}: orari, telefono e indicazioni.',
  'place.descriptionNoAddress': '{category}: orari, telefono e indicazioni.',
  'card.noAddress': 'Indirizzo non disponibile',
  'card.unnamed': 'Nessun nome nei dati della mappa',
  'card.near': 'Vicino a {address}',
  'card.approximate': 'Indirizzo approssimativo, dalla strada vicina',
  'card.distance': 'a {distance}',
  'card.viewOnMap': 'Vedi sulla mappa',
  'card.streetView': 'Vista stradale',
  'card.call': 'Chiama',
  'card.callPlace': 'Chiama {name}',
  'card.noPhone': 'Nessun numero di telefono',
  'card.website': 'Sito web',
  'card.wheelchair.yes': 'Accessibile in sedia a rotelle',
  'card.wheelchair.limited': 'Accesso limitato in sedia a rotelle',
  'card.wheelchair.no': 'Non accessibile in sedia a rotelle',
  'card.wheelchair.unknown': 'Accessibilità in sedia a rotelle sconosciuta',

  'status.open': 'Aperto ora',
  'status.closing_soon': 'Chiude a breve',
  'status.closed': 'Chiuso',
  'status.unknown': 'Orari sconosciuti',

  'map.label': 'Mappa dei risultati',
  'map.you': 'Tu sei qui',
  'map.cluster': '{count, plural, one {# luogo qui: premi per ingrandire} other {# luoghi qui: premi per ingrandire}}',
  'map.contributors': '© contributori di {osm}',

  'plans.heading': 'Piani e prezzi',
  'plans.intro': 'Fai trovare la tua attività a chi la cerca nelle vicinanze.',
  'plans.viewAll': 'Vedi tutti i piani',
  'plans.contactPrompt': 'Non sai quale piano scegliere?',
  'plans.contactText': 'Raccontaci della tua attività e ti aiuteremo a scegliere.',
  'plans.contactUs': 'Contattaci',
  'plans.billing': 'Periodo di fatturazione',
  'plans.monthly': 'Mensile',
  'plans.annual': 'Annuale',
  'plans.annualDiscount': 'Risparmia il 20%',
  'plans.perMonth': '/mese',
  'plans.perYear': '/anno',
  'plans.priceMonthly': '{price} al mese',
  'plans.priceAnnual': '{price} all’anno',
  'plans.saving': 'Risparmi {amount} all’anno',
  'plans.mostPopular': 'Il più scelto',
  'plans.recommended': 'Consigliato',
  'plans.select': 'Scegli il piano',
  'plans.features': 'Funzionalità',
  'plans.languages': 'Lingue',
  'plans.trial': 'Ogni piano inizia con una prova gratuita di 14 giorni. Nessuna carta di credito richiesta.',
  'plans.empty': 'Al momento non ci sono piani disponibili. Torna a trovarci presto.',
  'plans.salesHeading': 'Ti serve qualcosa di più?',
  'plans.salesText': 'Il nostro team commerciale preparerà un piano per più sedi o una configurazione su misura.',
  'plans.contactSales': 'Contatta il commerciale',
  'plans.faqHeading': 'Domande frequenti',
  'plans.faq.paymentQ': 'Quali metodi di pagamento accettate?',
  'plans.faq.paymentA':
    'Accettiamo le principali carte di credito e PayPal. I piani annuali si possono pagare anche con bonifico bancario.',
  'plans.faq.trialQ': 'Come funziona la prova gratuita?',
  'plans.faq.trialA':
    'Ogni piano inizia con una prova gratuita di 14 giorni e non serve una carta di credito per cominciare.',
  'plans.faq.annualQ': 'Quanto risparmio con la fatturazione annuale?',
  'plans.faq.annualA': 'La fatturazione annuale costa il 20% in meno rispetto al pagamento mensile per un anno.',
  'plans.faq.supportQ': 'In quanto tempo rispondete?',
  'plans.faq.supportA': 'Rispondiamo entro 24 ore nei giorni lavorativi.',

  'contact.heading': 'Contattaci',
  'contact.intro': 'Domande, suggerimenti o un luogo da aggiungere? Scrivici un messaggio.',
  'contact.formHeading': 'Invia un messaggio',
  'contact.name': 'Nome',
  'contact.email': 'Email',
  'contact.subject': 'Oggetto',
  'contact.message': 'Messaggio',
  'contact.required': 'Obbligatorio',
  'contact.send': 'Invia messaggio',
  'contact.sending': 'Invio in corso...',
  'contact.nameRequired': 'Inserisci il tuo nome.',
  'contact.emailRequired': 'Inserisci il tuo indirizzo email.',
  'contact.emailInvalid': 'Inserisci un indirizzo email valido, come nome@esempio.com.',
  'contact.subjectRequired': 'Inserisci un oggetto.',
  'contact.messageRequired': 'Scrivi il tuo messaggio.',
  'contact.tooLong': 'Il testo è troppo lungo.',
  'contact.fixErrors': 'Correggi i campi evidenziati.',
  'contact.success': 'Messaggio inviato correttamente',
  'contact.error': 'Errore durante l’invio del messaggio',
  'contact.tooMany': 'Errore durante l’invio del messaggio: sono stati inviati troppi messaggi. Riprova più tardi.',
  'contact.infoHeading': 'Informazioni di contatto',
  'contact.emailUs': 'Email',
  'contact.hoursHeading': 'Orari di apertura',
  'contact.dayRange': 'Da {from} a {to}',
  'contact.timeRange': '{from} – {to}',
  'contact.closed': 'Chiuso',
  'contact.replyTime': 'Rispondiamo entro 24 ore nei giorni lavorativi.',

  'category.healthcare': 'Sanità',
  'category.amenity': 'Servizi',
  'category.shop': 'Negozi',
  'category.tourism': 'Turismo',
  'category.education': 'Istruzione',
  'category.transport': 'Trasporti',
  'category.entertainment': 'Intrattenimento',
  'category.financial': 'Servizi finanziari',
  'category.public_service': 'Servizi pubblici',
  'category.restaurant': 'Ristoranti',
  'category.hotel': 'Alberghi',
  'category.parking': 'Parcheggi',
  'category.pharmacy': 'Farmacie',
  'category.hospital': 'Ospedali',
  'category.bank': 'Banche',
  'category.atm': 'Bancomat',
  'category.gas_station': 'Distributori di carburante',
  'category.supermarket': 'Supermercati',
  'category.bakery': 'Panetterie',
  'category.butcher': 'Macellerie',
  'category.post_office': 'Uffici postali',
  'category.police': 'Polizia',
  'category.fire_station': 'Vigili del fuoco',
  'category.library': 'Biblioteche',
  'category.gym': 'Palestre',
  'category.swimming_pool': 'Piscine',
  'category.park': 'Parchi',
  'category.playground': 'Parchi giochi',
  'category.cinema': 'Cinema',
  'category.theater': 'Teatri',
  'category.museum': 'Musei',
  'category.public_toilets': 'Bagni pubblici',
  'category.camping': 'Campeggi',
  'category.wifi': 'Punti Wi-Fi',
} satisfies Dictionary;

export default it;
