// Français.
import type { Dictionary } from './en';

const fr = {
  'app.loading': 'Chargement...',
  'app.skipToContent': 'Aller au contenu principal',
  'app.opensInNewTab': '(s’ouvre dans un nouvel onglet)',

  'nav.label': 'Navigation principale',
  'nav.home': 'Accueil',
  'nav.contact': 'Contact',
  'nav.plans': 'Offres',
  'nav.menu': 'Menu',
  'nav.language': 'Langue',
  'nav.homeLink': '{site}, page d’accueil',

  'footer.description':
    'Trouvez pharmacies, restaurants, banques, parcs et bien d’autres lieux près de chez vous, ' +
    'avec horaires et itinéraires, à partir de données cartographiques libres.',
  'footer.follow': 'Suivez-nous',
  'footer.followOn': 'Suivez-nous sur {network}',
  'footer.quickLinks': 'Liens rapides',
  'footer.legal': 'Mentions légales',
  'footer.privacy': 'Politique de confidentialité',
  'footer.terms': 'Conditions d’utilisation',
  'legal.privacyDescription': 'Ce que ce site conserve sur ses visiteurs, et ce qu’il ne conserve pas.',
  'legal.termsDescription': 'Les conditions d’utilisation de ce site et de ses informations sur les lieux.',
  'legal.privacyDefault':
    'Ce site vous aide à trouver des lieux près de chez vous. Cette page dit ce qu’il conserve sur ' +
    'vous, et ce qu’il ne conserve pas.\n' +
    '\n' +
    '## Ce que le site conserve\n' +
    '- Les messages envoyés par le formulaire de contact : votre nom, votre adresse e-mail, l’objet ' +
    'et le message, pour pouvoir vous répondre. Ils sont conservés jusqu’à ce qu’un administrateur ' +
    'les supprime.\n' +
    '- Le nombre de visites : combien de visites le site reçoit chaque jour, sans rien sur qui l’a ' +
    'visité.\n' +
    '- Des statistiques de recherche : les catégories cherchées, les noms de villes saisis et la zone ' +
    'de chaque recherche arrondie à environ 1 km, comptés par jour et jamais reliés à vous.\n' +
    '\n' +
    '## Ce qu’il ne conserve pas\n' +
    '- Aucun cookie de suivi ou publicitaire, et aucune mesure d’audience d’une autre entreprise. ' +
    'Seuls les administrateurs reçoivent un cookie, pour rester connectés.\n' +
    '- Votre position : si vous l’autorisez, votre navigateur l’envoie avec une recherche pour ' +
    'trouver les lieux proches. Elle n’est pas conservée, sauf arrondie à environ 1 km dans les ' +
    'statistiques ci-dessus.\n' +
    '\n' +
    '## Bon à savoir\n' +
    '- Votre navigateur retient la langue choisie, sur votre appareil.\n' +
    '- Comme tout serveur web, celui de ce site note les requêtes (adresse IP, page, heure) dans des ' +
    'journaux techniques qui servent à le faire fonctionner en sécurité, conservés le temps ' +
    'nécessaire seulement.\n' +
    '- La carte peut être dessinée par un service de cartes extérieur, qui reçoit alors votre adresse ' +
    'IP comme tout site que vous visitez. Les boutons comme Voir sur la carte et Vue de la rue ' +
    'n’ouvrent d’autres services que lorsque vous les utilisez.\n' +
    '\n' +
    '## Vos droits\n' +
    'Pour savoir ce que le site conserve sur vous, ou faire supprimer vos messages, écrivez-nous ' +
    'depuis la page de contact.',
  'legal.termsDefault':
    'En utilisant ce site, vous acceptez ces conditions.\n' +
    '\n' +
    '## Les informations\n' +
    'Les informations sur les lieux viennent des contributeurs d’OpenStreetMap et des fiches propres ' +
    'au site. Elles peuvent être incomplètes ou dépassées : horaires, adresses et numéros de ' +
    'téléphone changent, vérifiez donc auprès du lieu avant de vous déplacer. Le site n’en garantit ' +
    'pas l’exactitude.\n' +
    '\n' +
    '## Usage raisonnable\n' +
    'Utilisez le site pour vos propres recherches. Ne le surchargez pas de requêtes automatiques et ' +
    'ne l’utilisez pas à des fins illicites.\n' +
    '\n' +
    '## Autres services\n' +
    'Les liens et boutons (cartes, images de rue, sites des lieux, annonces sponsorisées) mènent à ' +
    'd’autres services, qui ont leurs propres conditions.\n' +
    '\n' +
    '## Données cartographiques\n' +
    'Données de la carte et des lieux © contributeurs d’OpenStreetMap, disponibles sous la licence ' +
    'Open Database License. La Politique de confidentialité du site décrit le traitement des données ' +
    'personnelles.\n' +
    '\n' +
    '## Modifications\n' +
    'Ces conditions peuvent changer ; la version de cette page est celle qui s’applique.',
  'footer.copyright': '© {year} {site}. Tous droits réservés.',
  'footer.mapData':
    'Données cartographiques et lieux © contributeurs d’OpenStreetMap, disponibles sous licence Open Database License.',

  'hero.defaultTitle': 'Trouvez des services près de chez vous',
  'hero.subtitle':
    'Pharmacies, restaurants, banques, parcs et plus encore autour de vous, sur une carte et dans une liste.',
  'hero.cta': 'Commencer la recherche',

  'ads.carouselLabel': 'Offres à la une',
  'ads.slide': 'Diapositive {current} sur {total}',
  'ads.previous': 'Diapositive précédente',
  'ads.next': 'Diapositive suivante',
  'ads.goTo': 'Afficher la diapositive {number}',
  'ads.pause': 'Mettre le diaporama en pause',
  'ads.play': 'Relancer le diaporama',
  'ads.untitled': 'Annonce sponsorisée',
  'ads.imageUnavailable': 'Image indisponible',
  'ads.sponsored': 'Annonces sponsorisées',

  'video.label': 'Vidéo à la une',
  'video.mute': 'Couper le son',
  'video.unmute': 'Activer le son',
  'video.play': 'Lire la vidéo',
  'video.pause': 'Mettre la vidéo en pause',
  'video.fullscreen': 'Plein écran',
  'video.exitFullscreen': 'Quitter le plein écran',

  'embed.openSite': 'Ouvrir {site} dans un nouvel onglet',
  'locator.heading': 'Rechercher des lieux à proximité',
  'locator.intro': 'Choisissez une ou plusieurs catégories, puis cherchez autour de vous ou dans une ville.',
  'locator.refreshSettings': 'Actualiser les paramètres',
  'locator.categories': 'Catégories',
  'locator.selectedCount': '{count, plural, one {# sélectionnée} other {# sélectionnées}}',
  'locator.clearCategories': 'Effacer la sélection',
  'locator.moreCategories': 'Plus de catégories',
  'locator.fewerCategories': 'Moins de catégories',
  'locator.options': 'Options de recherche',
  'locator.openNow': 'Ouverts maintenant uniquement',
  'locator.wheelchair': 'Accessibles en fauteuil roulant uniquement',
  'locator.wheelchairLimited': 'Inclure l’accès limité en fauteuil roulant',
  'locator.travel': 'Comment vous y allez',
  'locator.travelHint': 'Pour savoir si les lieux seront encore ouverts à votre arrivée.',
  'locator.travel.none': 'Non précisé',
  'locator.travel.walk': 'À pied',
  'locator.travel.bike': 'À vélo',
  'locator.travel.drive': 'En voiture',
  'locator.name': 'Nom',
  'locator.nameHint':
    'Une partie du nom d’un lieu, par ex. « starb » pour Starbucks. Sans catégorie, toutes sont cherchées.',
  'locator.share': 'Partager cette recherche',
  'locator.linkCopied': 'Lien copié',
  'locator.city': 'Ville',
  'locator.cityHint': 'Laissez vide pour chercher autour de votre position.',
  'locator.cityPlaceholder': 'p. ex. {city}',
  'locator.search': 'Rechercher près de moi',
  'locator.searching': 'Recherche en cours...',
  'locator.selectCategory': 'Veuillez sélectionner au moins une catégorie',

  'location.locating': 'Localisation en cours...',
  'location.found': 'Votre position actuelle est utilisée.',
  'location.denied': 'Accès à la position refusé. La position par défaut est utilisée.',
  'location.insecure': 'La position par défaut est utilisée. Pour le GPS, passez par localhost ou activez HTTPS.',
  'location.needed': 'Accès à la position refusé. Veuillez activer les services de localisation.',

  'search.retrying': 'Service temporairement indisponible. Nouvelle tentative...',
  'search.unavailable': 'Service temporairement indisponible. Veuillez réessayer plus tard.',
  'search.cityNotFound': 'Ville introuvable. Vérifiez son orthographe ou laissez le champ vide.',

  'results.heading': 'Résultats',
  'results.count.one': '{count} lieu trouvé',
  'results.count.other': '{count} lieux trouvés',
  'results.showing': 'Résultats 1 à {shown} sur {total}',
  'results.noneHint': 'Aucun résultat. Essayez une autre catégorie ou un autre lieu.',
  'results.noCoverage': 'Ce site n’a pas encore de lieux par ici : ses données ne couvrent pas cette zone.',
  'results.prompt':
    'Choisissez des catégories puis appuyez sur Rechercher près de moi pour voir les lieux autour de vous.',
  'results.loading': 'Chargement des résultats...',
  'results.loadMore': 'Afficher plus',

  'place.notFound': 'Lieu introuvable',
  'place.notFoundText': 'Ce lieu n’est pas dans notre index : il a peut-être fermé ou été retiré d’OpenStreetMap.',
  'place.loadError': 'Impossible de charger ce lieu',
  'place.loadErrorText': 'Veuillez réessayer dans un instant.',
  'place.back': 'Retour à la recherche',
  'browse.heading': 'Parcourir les lieux par ville',
  'browse.intro': 'Les lieux que nous connaissons, ville par ville et par type.',
  'group.title': '{category} à {town}',
  'group.description':
    '{category} à {town} : adresses, numéros de téléphone et horaires, avec une page pour chaque lieu.',
  'group.notFound': 'Rien à afficher ici',
  'group.notFoundText': 'Nous n’avons aucun lieu de ce type dans cette ville.',
  'group.unnamed': 'Lieu sans nom',
  'place.hours': 'Horaires d’ouverture',
  'place.hoursUnknown': 'Horaires inconnus',
  'place.closedAllDay': 'Fermé',
  'place.open24': 'Ouvert 24 h/24',
  'place.today': '(aujourd’hui)',
  'place.opensAt': 'Ouvre à {time}',
  'place.opensOn': 'Ouvre {day} à {time}',
  'place.closesIn': '{minutes, plural, one {Ferme dans # minute} other {Ferme dans # minutes}}',
  'place.closesAt': 'Ferme à {time}',
  'place.localTime': 'Les heures sont celles du lieu ({zone}).',
  'place.address': 'Adresse',
  'place.phone': 'Téléphone',
  'place.access': 'Accès en fauteuil roulant',
  'place.map': 'Carte de {name}',
  'place.links': 'Itinéraires et liens',
  'place.directionsOsm': 'Itinéraire (OpenStreetMap)',
  'place.directionsGoogle': 'Itinéraire (Google Maps)',
  'place.improve': 'Améliorer ce lieu sur OpenStreetMap',
  'place.description': '{category}, {address} : horaires, téléphone et itinéraire.',
  'place.descriptionNoAddress': '{category} : horaires, téléphone et itinéraire.',
  'card.noAddress': 'Adresse non disponible',
  'card.unnamed': 'Aucun nom dans les données de la carte',
  'card.near': 'Près de {address}',
  'card.approximate': 'Adresse approximative, d’après la rue voisine',
  'card.distance': 'à {distance}',
  'card.viewOnMap': 'Voir sur la carte',
  'card.streetView': 'Vue de la rue',
  'card.call': 'Appeler',
  'card.callPlace': 'Appeler {name}',
  'card.noPhone': 'Aucun numéro de téléphone',
  'card.website': 'Site web',
  'card.wheelchair.yes': 'Accessible en fauteuil roulant',
  'card.wheelchair.limited': 'Accès limité en fauteuil roulant',
  'card.wheelchair.no': 'Non accessible en fauteuil roulant',
  'card.wheelchair.unknown': 'Accessibilité en fauteuil roulant inconnue',

  'status.open': 'Ouvert',
  'status.closing_soon': 'Ferme bientôt',
  'status.closed': 'Fermé',
  'status.unknown': 'Horaires inconnus',

  'map.label': 'Carte des résultats',
  'map.you': 'Vous êtes ici',
  'map.cluster': '{count, plural, one {# lieu ici : appuyez pour zoomer} other {# lieux ici : appuyez pour zoomer}}',
  'map.contributors': '© les contributeurs d’{osm}',

  'plans.heading': 'Offres et tarifs',
  'plans.intro': 'Faites connaître votre établissement à ceux qui le cherchent à proximité.',
  'plans.viewAll': 'Voir toutes les offres',
  'plans.contactPrompt': 'Vous hésitez entre plusieurs offres ?',
  'plans.contactText': 'Parlez-nous de votre activité et nous vous aiderons à choisir.',
  'plans.contactUs': 'Nous contacter',
  'plans.billing': 'Période de facturation',
  'plans.monthly': 'Mensuel',
  'plans.annual': 'Annuel',
  'plans.annualDiscount': '20 % d’économie',
  'plans.perMonth': '/mois',
  'plans.perYear': '/an',
  'plans.priceMonthly': '{price} par mois',
  'plans.priceAnnual': '{price} par an',
  'plans.saving': 'Économisez {amount} par an',
  'plans.mostPopular': 'Le plus populaire',
  'plans.recommended': 'Recommandé',
  'plans.select': 'Choisir cette offre',
  'plans.features': 'Fonctionnalités',
  'plans.languages': 'Langues',
  'plans.trial': 'Chaque offre commence par un essai gratuit de 14 jours. Sans carte bancaire.',
  'plans.empty': 'Aucune offre n’est disponible pour le moment. Revenez bientôt.',
  'plans.salesHeading': 'Besoin de plus ?',
  'plans.salesText':
    'Notre équipe commerciale préparera une offre pour plusieurs établissements ou une configuration sur mesure.',
  'plans.contactSales': 'Contacter le service commercial',
  'plans.faqHeading': 'Questions fréquentes',
  'plans.faq.paymentQ': 'Quels moyens de paiement acceptez-vous ?',
  'plans.faq.paymentA':
    'Nous acceptons les principales cartes bancaires et PayPal. Les offres annuelles peuvent aussi être réglées par virement bancaire.',
  'plans.faq.trialQ': 'Comment fonctionne l’essai gratuit ?',
  'plans.faq.trialA': 'Chaque offre commence par un essai gratuit de 14 jours, sans carte bancaire pour démarrer.',
  'plans.faq.annualQ': 'Combien puis-je économiser avec la facturation annuelle ?',
  'plans.faq.annualA': 'La facturation annuelle coûte 20 % de moins que douze mois payés séparément.',
  'plans.faq.supportQ': 'En combien de temps répondez-vous ?',
  'plans.faq.supportA': 'Nous répondons sous 24 heures les jours ouvrés.',

  'contact.heading': 'Nous contacter',
  'contact.intro': 'Une question, un avis ou un lieu à ajouter ? Envoyez-nous un message.',
  'contact.formHeading': 'Envoyer un message',
  'contact.name': 'Nom',
  'contact.email': 'E-mail',
  'contact.subject': 'Objet',
  'contact.message': 'Message',
  'contact.required': 'Obligatoire',
  'contact.send': 'Envoyer le message',
  'contact.sending': 'Envoi en cours...',
  'contact.nameRequired': 'Veuillez indiquer votre nom.',
  'contact.emailRequired': 'Veuillez indiquer votre adresse e-mail.',
  'contact.emailInvalid': 'Veuillez indiquer une adresse e-mail valide, comme nom@exemple.com.',
  'contact.subjectRequired': 'Veuillez indiquer un objet.',
  'contact.messageRequired': 'Veuillez écrire votre message.',
  'contact.tooLong': 'Ce texte est trop long.',
  'contact.fixErrors': 'Veuillez corriger les champs signalés.',
  'contact.success': 'Message envoyé avec succès',
  'contact.error': 'Erreur lors de l’envoi du message',
  'contact.tooMany':
    'Erreur lors de l’envoi du message : trop de messages ont été envoyés. Veuillez réessayer plus tard.',
  'contact.infoHeading': 'Coordonnées',
  'contact.emailUs': 'E-mail',
  'contact.hoursHeading': 'Horaires d’ouverture',
  'contact.dayRange': 'Du {from} au {to}',
  'contact.timeRange': '{from} – {to}',
  'contact.closed': 'Fermé',
  'contact.replyTime': 'Nous répondons sous 24 heures les jours ouvrés.',

  'category.healthcare': 'Santé',
  'category.amenity': 'Équipements',
  'category.shop': 'Commerces',
  'category.tourism': 'Tourisme',
  'category.education': 'Éducation',
  'category.transport': 'Transports',
  'category.entertainment': 'Loisirs',
  'category.financial': 'Services financiers',
  'category.public_service': 'Services publics',
  'category.restaurant': 'Restauration',
  'category.hotel': 'Hôtels',
  'category.parking': 'Stationnement',
  'category.pharmacy': 'Pharmacies',
  'category.hospital': 'Hôpitaux',
  'category.bank': 'Banques',
  'category.atm': 'Distributeurs de billets',
  'category.gas_station': 'Stations-service',
  'category.supermarket': 'Supermarchés',
  'category.bakery': 'Boulangeries',
  'category.butcher': 'Boucheries',
  'category.post_office': 'Bureaux de poste',
  'category.police': 'Commissariats',
  'category.fire_station': 'Casernes de pompiers',
  'category.library': 'Bibliothèques',
  'category.gym': 'Salles de sport',
  'category.swimming_pool': 'Piscines',
  'category.park': 'Parcs',
  'category.playground': 'Aires de jeux',
  'category.cinema': 'Cinémas',
  'category.theater': 'Théâtres',
  'category.museum': 'Musées',
  'category.public_toilets': 'Toilettes publiques',
  'category.camping': 'Campings',
  'category.wifi': 'Points d’accès Wi-Fi',
} satisfies Dictionary;

export default fr;
