// English: the reference dictionary. Its keys are the type every other language must satisfy.
// `{name}` marks a value filled in at run time; keep the same placeholders in every language.
const en = {
  'app.loading': 'Loading...',
  'app.skipToContent': 'Skip to main content',
  'app.opensInNewTab': '(opens in a new tab)',

  'nav.label': 'Main navigation',
  'nav.home': 'Home',
  'nav.contact': 'Contact',
  'nav.plans': 'Plans',
  'nav.menu': 'Menu',
  'nav.language': 'Language',
  'nav.homeLink': '{site}, home page',

  'footer.description':
    'Find pharmacies, restaurants, banks, parks and many more places near you, with opening hours and directions, built on open map data.',
  'footer.follow': 'Follow us',
  'footer.followOn': 'Follow us on {network}',
  'footer.quickLinks': 'Quick links',
  'footer.legal': 'Legal',
  'footer.privacy': 'Privacy Policy',
  'footer.terms': 'Terms of Service',
  'legal.privacyDescription': 'What this site keeps about its visitors, and what it does not.',
  'legal.termsDescription': 'The terms of use of this site and of its place information.',
  'legal.privacyDefault':
    'This site helps you find places near you. This page says what it keeps about you, and what it ' +
    'does not.\n' +
    '\n' +
    '## What the site keeps\n' +
    '- Messages you send through the contact form: your name, email address, subject and message, so ' +
    'that we can answer you. They are kept until an administrator deletes them.\n' +
    '- Visit counts: how many visits the site receives each day, with nothing about who visited.\n' +
    '- Search statistics: the categories searched, the city names typed and the area of each search ' +
    'rounded to about 1 km, counted per day and never linked to you.\n' +
    '\n' +
    '## What it does not keep\n' +
    '- No tracking or advertising cookies, and no analytics from other companies. Only administrators ' +
    'receive a cookie, to stay signed in.\n' +
    '- Your position: when you allow it, your browser sends it with a search so that nearby places ' +
    'can be found. It is not stored, except rounded to about 1 km in the statistics above.\n' +
    '\n' +
    '## Good to know\n' +
    '- Your browser remembers the language you chose, on your device.\n' +
    "- Like any web server, this site's server records requests (IP address, page, time) in technical " +
    'logs that keep it running and secure, kept only as long as needed.\n' +
    '- The map may be drawn by an outside map service, which then receives your IP address as any ' +
    'website you visit does. Buttons such as View on Map and Street View open other services only ' +
    'when you press them.\n' +
    '\n' +
    '## Your rights\n' +
    'To ask what the site holds about you, or to have your messages deleted, write to us through the ' +
    'contact page.',
  'legal.termsDefault':
    'By using this site you accept these terms.\n' +
    '\n' +
    '## The information\n' +
    "Place information comes from OpenStreetMap contributors and from the site's own entries. It may " +
    'be incomplete or out of date: opening hours, addresses and phone numbers change, so check with ' +
    'the place before you go. The site gives no guarantee that it is accurate.\n' +
    '\n' +
    '## Fair use\n' +
    'Use the site for your own searches. Do not overload it with automated requests, and do not use ' +
    'it for anything unlawful.\n' +
    '\n' +
    '## Other services\n' +
    "Links and buttons (maps, street imagery, places' own websites, sponsored ads) lead to other " +
    'services, which have their own terms.\n' +
    '\n' +
    '## Map data\n' +
    'Map and place data © OpenStreetMap contributors, available under the Open Database License. How ' +
    'the site treats personal data is described in its Privacy Policy.\n' +
    '\n' +
    '## Changes\n' +
    'These terms may change; the version on this page is the one that applies.',
  'footer.copyright': '© {year} {site}. All rights reserved.',
  'footer.mapData': 'Map and place data © OpenStreetMap contributors, available under the Open Database License.',

  'hero.defaultTitle': 'Find Services Near You',
  'hero.subtitle': 'Pharmacies, restaurants, banks, parks and more around you, on a map and in a list.',
  'hero.cta': 'Start searching',

  'ads.carouselLabel': 'Featured offers',
  'ads.slide': 'Slide {current} of {total}',
  'ads.previous': 'Previous slide',
  'ads.next': 'Next slide',
  'ads.goTo': 'Show slide {number}',
  'ads.pause': 'Pause the slideshow',
  'ads.play': 'Play the slideshow',
  'ads.untitled': 'Sponsored ad',
  'ads.imageUnavailable': 'Image unavailable',
  'ads.sponsored': 'Sponsored Ads',

  'video.label': 'Featured video',
  'video.mute': 'Mute',
  'video.unmute': 'Unmute',
  'video.play': 'Play video',
  'video.pause': 'Pause video',
  'video.fullscreen': 'Full screen',
  'video.exitFullscreen': 'Exit full screen',

  'embed.openSite': 'Open {site} in a new tab',
  'locator.heading': 'Search nearby places',
  'locator.intro': 'Choose one or more categories, then search around your location or in a city.',
  'locator.refreshSettings': 'Refresh settings',
  'locator.categories': 'Categories',
  'locator.selectedCount': '{count} selected',
  'locator.clearCategories': 'Clear selection',
  'locator.moreCategories': 'More categories',
  'locator.fewerCategories': 'Fewer categories',
  'locator.options': 'Search options',
  'locator.openNow': 'Only open now',
  'locator.wheelchair': 'Wheelchair accessible only',
  'locator.wheelchairLimited': 'Include limited wheelchair access',
  'locator.travel': 'How you get there',
  'locator.travelHint': 'Used to tell whether places are still open when you arrive.',
  'locator.travel.none': 'Not set',
  'locator.travel.walk': 'Walking',
  'locator.travel.bike': 'Cycling',
  'locator.travel.drive': 'Driving',
  'locator.name': 'Name',
  'locator.nameHint': "Part of a place's name, e.g. “starb” for Starbucks. Without categories, all are searched.",
  'locator.share': 'Share this search',
  'locator.linkCopied': 'Link copied',
  'locator.city': 'City',
  'locator.cityHint': 'Leave empty to search around your location.',
  'locator.cityPlaceholder': 'e.g. {city}',
  'locator.search': 'Search Near Me',
  'locator.searching': 'Searching...',
  'locator.selectCategory': 'Please select at least one category',

  'location.locating': 'Finding your location...',
  'location.found': 'Using your current location.',
  'location.denied': 'Location access denied. Using default location.',
  'location.insecure': 'Using default location. For GPS location, access via localhost or enable HTTPS.',
  'location.needed': 'Location access denied. Please enable location services.',

  'search.retrying': 'Service temporarily unavailable. Retrying...',
  'search.unavailable': 'Service temporarily unavailable. Please try again later.',
  'search.cityNotFound': 'That city was not found. Check its spelling or leave the field empty.',

  'results.heading': 'Results',
  'results.count.one': '{count} place found',
  'results.count.other': '{count} places found',
  'results.showing': 'Showing 1-{shown} of {total} results',
  'results.noneHint': 'No results found. Try a different category or location.',
  'results.noCoverage': 'This site has no places around here yet: its place data does not cover this area.',
  'results.prompt': 'Choose categories and press Search Near Me to see places around you.',
  'results.loading': 'Loading results...',
  'results.loadMore': 'Load More',

  'place.notFound': 'Place not found',
  'place.notFoundText': 'This place is not in our index: it may have closed or been removed from OpenStreetMap.',
  'place.loadError': 'This place could not be loaded',
  'place.loadErrorText': 'Please try again in a moment.',
  'place.back': 'Back to the search',
  'browse.heading': 'Browse places by town',
  'browse.intro': 'Places we know of, town by town and by kind.',
  'group.title': '{category} in {town}',
  'group.description': '{category} in {town}: addresses, phone numbers and opening hours, with a page for each place.',
  'group.notFound': 'Nothing listed here',
  'group.notFoundText': 'We have no places of this kind in this town.',
  'group.unnamed': 'Unnamed place',
  'place.hours': 'Opening hours',
  'place.hoursUnknown': 'Opening hours unknown',
  'place.closedAllDay': 'Closed',
  'place.open24': 'Open 24 hours',
  'place.today': '(today)',
  'place.opensAt': 'Opens at {time}',
  'place.opensOn': 'Opens {day} at {time}',
  'place.closesIn': '{minutes, plural, one {Closes in # minute} other {Closes in # minutes}}',
  'place.closesAt': 'Closes at {time}',
  'place.localTime': 'Times are the place’s local time ({zone}).',
  'place.address': 'Address',
  'place.phone': 'Phone',
  'place.access': 'Wheelchair access',
  'place.map': 'Map of {name}',
  'place.links': 'Directions and links',
  'place.directionsOsm': 'Directions (OpenStreetMap)',
  'place.directionsGoogle': 'Directions (Google Maps)',
  'place.improve': 'Improve this place on OpenStreetMap',
  'place.description': '{category}, {address}: opening hours, phone and directions.',
  'place.descriptionNoAddress': '{category}: opening hours, phone and directions.',
  'card.noAddress': 'No address available',
  'card.unnamed': 'No name given in the map data',
  'card.near': 'Near {address}',
  'card.approximate': 'Approximate address, from the street nearby',
  'card.distance': '{distance} away',
  'card.viewOnMap': 'View on Map',
  'card.streetView': 'Street View',
  'card.call': 'Call',
  'card.callPlace': 'Call {name}',
  'card.noPhone': 'No phone number',
  'card.website': 'Website',
  'card.wheelchair.yes': 'Wheelchair accessible',
  'card.wheelchair.limited': 'Limited wheelchair access',
  'card.wheelchair.no': 'Not wheelchair accessible',
  'card.wheelchair.unknown': 'Wheelchair access unknown',

  'status.open': 'Open now',
  'status.closing_soon': 'Closes soon',
  'status.closed': 'Closed',
  'status.unknown': 'Hours unknown',

  'map.label': 'Map of the results',
  'map.you': 'You are here',
  'map.cluster': '{count, plural, one {# place here: press to zoom in} other {# places here: press to zoom in}}',
  'map.contributors': '© {osm} contributors',

  'plans.heading': 'Plans and pricing',
  'plans.intro': 'Put your business in front of people looking for it nearby.',
  'plans.viewAll': 'View All Plans',
  'plans.contactPrompt': 'Not sure which plan fits you?',
  'plans.contactText': 'Tell us about your business and we will help you choose.',
  'plans.contactUs': 'Contact us',
  'plans.billing': 'Billing period',
  'plans.monthly': 'Monthly',
  'plans.annual': 'Annual',
  'plans.annualDiscount': 'Save 20%',
  'plans.perMonth': '/month',
  'plans.perYear': '/year',
  'plans.priceMonthly': '{price} per month',
  'plans.priceAnnual': '{price} per year',
  'plans.saving': 'Save {amount} a year',
  'plans.mostPopular': 'Most Popular',
  'plans.recommended': 'Recommended',
  'plans.select': 'Select plan',
  'plans.features': 'Features',
  'plans.languages': 'Languages',
  'plans.trial': 'Every plan starts with a 14-day free trial. No credit card required.',
  'plans.empty': 'No plans are available right now. Please come back soon.',
  'plans.salesHeading': 'Need something bigger?',
  'plans.salesText': 'Our sales team will put together a plan for several locations or a custom setup.',
  'plans.contactSales': 'Contact sales',
  'plans.faqHeading': 'Frequently asked questions',
  'plans.faq.paymentQ': 'Which payment methods do you accept?',
  'plans.faq.paymentA': 'We accept all major credit cards and PayPal. Annual plans can also be paid by bank transfer.',
  'plans.faq.trialQ': 'How does the free trial work?',
  'plans.faq.trialA': 'Every plan starts with a 14-day free trial, and no credit card is needed to begin.',
  'plans.faq.annualQ': 'How much do I save with annual billing?',
  'plans.faq.annualA': 'Annual billing costs 20% less than paying month by month for a year.',
  'plans.faq.supportQ': 'How fast do you answer questions?',
  'plans.faq.supportA': 'We reply within 24 hours on business days.',

  'contact.heading': 'Contact us',
  'contact.intro': 'Questions, feedback or a listing to add? Send us a message.',
  'contact.formHeading': 'Send a message',
  'contact.name': 'Name',
  'contact.email': 'Email',
  'contact.subject': 'Subject',
  'contact.message': 'Message',
  'contact.required': 'Required',
  'contact.send': 'Send message',
  'contact.sending': 'Sending...',
  'contact.nameRequired': 'Please enter your name.',
  'contact.emailRequired': 'Please enter your email address.',
  'contact.emailInvalid': 'Please enter a valid email address, such as name@example.com.',
  'contact.subjectRequired': 'Please enter a subject.',
  'contact.messageRequired': 'Please write your message.',
  'contact.tooLong': 'This is too long.',
  'contact.fixErrors': 'Please correct the highlighted fields.',
  'contact.success': 'Message sent successfully',
  'contact.error': 'Error sending message',
  'contact.tooMany': 'Error sending message: too many messages were sent. Please try again later.',
  'contact.infoHeading': 'Contact information',
  'contact.emailUs': 'Email',
  'contact.hoursHeading': 'Business hours',
  'contact.dayRange': '{from} to {to}',
  'contact.timeRange': '{from} – {to}',
  'contact.closed': 'Closed',
  'contact.replyTime': 'We reply within 24 hours on business days.',

  'category.healthcare': 'Healthcare',
  'category.amenity': 'Amenities',
  'category.shop': 'Shops',
  'category.tourism': 'Tourism',
  'category.education': 'Education',
  'category.transport': 'Transport',
  'category.entertainment': 'Entertainment',
  'category.financial': 'Financial services',
  'category.public_service': 'Public services',
  'category.restaurant': 'Restaurants',
  'category.hotel': 'Hotels',
  'category.parking': 'Parking',
  'category.pharmacy': 'Pharmacies',
  'category.hospital': 'Hospitals',
  'category.bank': 'Banks',
  'category.atm': 'ATMs',
  'category.gas_station': 'Gas stations',
  'category.supermarket': 'Supermarkets',
  'category.bakery': 'Bakeries',
  'category.butcher': 'Butchers',
  'category.post_office': 'Post offices',
  'category.police': 'Police',
  'category.fire_station': 'Fire stations',
  'category.library': 'Libraries',
  'category.gym': 'Gyms',
  'category.swimming_pool': 'Swimming pools',
  'category.park': 'Parks',
  'category.playground': 'Playgrounds',
  'category.cinema': 'Cinemas',
  'category.theater': 'Theaters',
  'category.museum': 'Museums',
  'category.public_toilets': 'Public toilets',
  'category.camping': 'Camping',
  'category.wifi': 'Wi-Fi hotspots',
};

export type Dictionary = Record<keyof typeof en, string>;
export type TextKey = keyof typeof en;
export default en satisfies Dictionary;
