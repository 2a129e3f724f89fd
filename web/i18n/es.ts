// Español.
import type { Dictionary } from './en';

const es = {
  'app.loading': 'Cargando...',
  'app.skipToContent': 'Saltar al contenido principal',
  'app.opensInNewTab': '(se abre en una pestaña nueva)',

  'nav.label': 'Navegación principal',
  'nav.home': 'Inicio',
  'nav.contact': 'Contacto',
  'nav.plans': 'Planes',
  'nav.menu': 'Menú',
  'nav.language': 'Idioma',
  'nav.homeLink': '{site}, página de inicio',

  'footer.description':
    'Encuentra farmacias, restaurantes, bancos, parques y muchos otros lugares cerca de ti, ' +
    'con horarios y cómo llegar, sobre datos de mapas abiertos.',
  'footer.follow': 'Síguenos',
  'footer.followOn': 'Síguenos en {network}',
  'footer.quickLinks': 'Enlaces rápidos',
  'footer.legal': 'Aviso legal',
  'footer.privacy': 'Política de privacidad',
  'footer.terms': 'Condiciones de uso',
  'legal.privacyDescription': 'Qué guarda este sitio sobre sus visitantes, y qué no.',
  'legal.termsDescription': 'Las condiciones de uso de este sitio y de su información de lugares.',
  'legal.privacyDefault':
    'Este sitio te ayuda a encontrar lugares cerca de ti. Esta página explica qué guarda sobre ti y ' +
    'qué no.\n' +
    '\n' +
    '## Lo que guarda el sitio\n' +
    '- Los mensajes que envías con el formulario de contacto: tu nombre, tu correo electrónico, el ' +
    'asunto y el mensaje, para poder responderte. Se conservan hasta que un administrador los ' +
    'elimina.\n' +
    '- El número de visitas: cuántas visitas recibe el sitio cada día, sin nada sobre quién lo ' +
    'visitó.\n' +
    '- Estadísticas de búsqueda: las categorías buscadas, los nombres de ciudades escritos y la zona ' +
    'de cada búsqueda redondeada a aproximadamente 1 km, contadas por día y nunca vinculadas a ti.\n' +
    '\n' +
    '## Lo que no guarda\n' +
    '- Ninguna cookie de seguimiento ni de publicidad, ni analíticas de otras empresas. Solo los ' +
    'administradores reciben una cookie, para mantener su sesión iniciada.\n' +
    '- Tu posición: si lo permites, tu navegador la envía con una búsqueda para encontrar los lugares ' +
    'cercanos. No se guarda, salvo redondeada a aproximadamente 1 km en las estadísticas anteriores.\n' +
    '\n' +
    '## Conviene saber\n' +
    '- Tu navegador recuerda el idioma que elegiste, en tu dispositivo.\n' +
    '- Como cualquier servidor web, el de este sitio anota las peticiones (dirección IP, página, ' +
    'hora) en registros técnicos que sirven para mantenerlo en marcha y seguro, y que se guardan solo ' +
    'el tiempo necesario.\n' +
    '- El mapa puede dibujarlo un servicio de mapas externo, que recibe entonces tu dirección IP como ' +
    'cualquier sitio web que visitas. Botones como Ver en el mapa y Vista de calle abren otros ' +
    'servicios solo cuando los pulsas.\n' +
    '\n' +
    '## Tus derechos\n' +
    'Para saber qué datos tuyos tiene el sitio, o pedir que se eliminen tus mensajes, escríbenos ' +
    'desde la página de contacto.',
  'legal.termsDefault':
    'Al usar este sitio aceptas estas condiciones.\n' +
    '\n' +
    '## La información\n' +
    'La información de los lugares procede de los colaboradores de OpenStreetMap y de las entradas ' +
    'propias del sitio. Puede estar incompleta o desactualizada: los horarios, las direcciones y los ' +
    'teléfonos cambian, así que confírmalos con el lugar antes de ir. El sitio no garantiza su ' +
    'exactitud.\n' +
    '\n' +
    '## Uso razonable\n' +
    'Usa el sitio para tus propias búsquedas. No lo sobrecargues con peticiones automáticas ni lo ' +
    'uses para nada ilícito.\n' +
    '\n' +
    '## Otros servicios\n' +
    'Los enlaces y botones (mapas, imágenes de la calle, sitios web de los lugares, anuncios ' +
    'patrocinados) llevan a otros servicios, con sus propias condiciones.\n' +
    '\n' +
    '## Datos del mapa\n' +
    'Datos del mapa y de los lugares © colaboradores de OpenStreetMap, disponibles bajo la Open ' +
    'Database License. La Política de privacidad del sitio explica cómo trata los datos personales.\n' +
    '\n' +
    '## Cambios\n' +
    'Estas condiciones pueden cambiar; se aplica la versión que figura en esta página.',
  'footer.copyright': '© {year} {site}. Todos los derechos reservados.',
  'footer.mapData':
    'Datos de mapas y lugares © colaboradores de OpenStreetMap, disponibles bajo la Open Database License.',

  'hero.defaultTitle': 'Encuentra servicios cerca de ti',
  'hero.subtitle': 'Farmacias, restaurantes, bancos, parques y más a tu alrededor, en un mapa y en una lista.',
  'hero.cta': 'Empezar a buscar',

  'ads.carouselLabel': 'Ofertas destacadas',
  'ads.slide': 'Diapositiva {current} de {total}',
  'ads.previous': 'Diapositiva anterior',
  'ads.next': 'Diapositiva siguiente',
  'ads.goTo': 'Mostrar la diapositiva {number}',
  'ads.pause': 'Pausar la presentación',
  'ads.play': 'Reanudar la presentación',
  'ads.untitled': 'Anuncio patrocinado',
  'ads.imageUnavailable': 'Imagen no disponible',
  'ads.sponsored': 'Anuncios patrocinados',

  'video.label': 'Vídeo destacado',
  'video.mute': 'Silenciar',
  'video.unmute': 'Activar sonido',
  'video.play': 'Reproducir vídeo',
  'video.pause': 'Pausar vídeo',
  'video.fullscreen': 'Pantalla completa',
  'video.exitFullscreen': 'Salir de pantalla completa',

  'embed.openSite': 'Abrir {site} en una pestaña nueva',
  'locator.heading': 'Buscar lugares cercanos',
  'locator.intro': 'Elige una o más categorías y busca alrededor de tu ubicación o en una ciudad.',
  'locator.refreshSettings': 'Actualizar configuración',
  'locator.categories': 'Categorías',
  'locator.selectedCount': '{count, plural, one {# seleccionada} other {# seleccionadas}}',
  'locator.clearCategories': 'Borrar selección',
  'locator.moreCategories': 'Más categorías',
  'locator.fewerCategories': 'Menos categorías',
  'locator.options': 'Opciones de búsqueda',
  'locator.openNow': 'Solo abiertos ahora',
  'locator.wheelchair': 'Solo accesibles en silla de ruedas',
  'locator.wheelchairLimited': 'Incluir acceso limitado en silla de ruedas',
  'locator.travel': 'Cómo llegas',
  'locator.travelHint': 'Sirve para saber si los lugares seguirán abiertos cuando llegues.',
  'locator.travel.none': 'Sin indicar',
  'locator.travel.walk': 'A pie',
  'locator.travel.bike': 'En bici',
  'locator.travel.drive': 'En coche',
  'locator.name': 'Nombre',
  'locator.nameHint': 'Parte del nombre de un lugar, p. ej. «starb» para Starbucks. Sin categorías, se busca en todas.',
  'locator.share': 'Compartir esta búsqueda',
  'locator.linkCopied': 'Enlace copiado',
  'locator.city': 'Ciudad',
  'locator.cityHint': 'Déjalo vacío para buscar alrededor de tu ubicación.',
  'locator.cityPlaceholder': 'p. ej. {city}',
  'locator.search': 'Buscar cerca de mí',
  'locator.searching': 'Buscando...',
  'locator.selectCategory': 'Selecciona al menos una categoría',

  'location.locating': 'Buscando tu ubicación...',
  'location.found': 'Usando tu ubicación actual.',
  'location.denied': 'Acceso a la ubicación denegado. Usando la ubicación predeterminada.',
  'location.insecure':
    'Usando la ubicación predeterminada. Para usar el GPS, accede mediante localhost o activa HTTPS.',
  'location.needed': 'Acceso a la ubicación denegado. Activa los servicios de ubicación.',

  'search.retrying': 'Servicio no disponible temporalmente. Reintentando...',
  'search.unavailable': 'Servicio no disponible temporalmente. Inténtalo de nuevo más tarde.',
  'search.cityNotFound': 'No se encontró esa ciudad. Revisa cómo está escrita o deja el campo vacío.',

  'results.heading': 'Resultados',
  'results.count.one': '{count} lugar encontrado',
  'results.count.other': '{count} lugares encontrados',
  'results.showing': 'Mostrando 1-{shown} de {total} resultados',
  'results.noneHint': 'No se encontraron resultados. Prueba con otra categoría o ubicación.',
  'results.noCoverage': 'Este sitio aún no tiene lugares por aquí: sus datos de lugares no cubren esta zona.',
  'results.prompt': 'Elige categorías y pulsa Buscar cerca de mí para ver los lugares a tu alrededor.',
  'results.loading': 'Cargando resultados...',
  'results.loadMore': 'Cargar más',

  'place.notFound': 'Lugar no encontrado',
  'place.notFoundText':
    'Este lugar no está en nuestro índice: puede haber cerrado o haberse eliminado de OpenStreetMap.',
  'place.loadError': 'No se pudo cargar este lugar',
  'place.loadErrorText': 'Inténtalo de nuevo en un momento.',
  'place.back': 'Volver a la búsqueda',
  'browse.heading': 'Explorar lugares por ciudad',
  'browse.intro': 'Los lugares que conocemos, ciudad por ciudad y por tipo.',
  'group.title': '{category} en {town}',
  'group.description': '{category} en {town}: direcciones, teléfonos y horarios, con una página para cada lugar.',
  'group.notFound': 'No hay nada aquí',
  'group.notFoundText': 'No tenemos lugares de este tipo en esta ciudad.',
  'group.unnamed': 'Lugar sin nombre',
  'place.hours': 'Horario',
  'place.hoursUnknown': 'Horario desconocido',
  'place.closedAllDay': 'Cerrado',
  'place.open24': 'Abierto 24 horas',
  'place.today': '(hoy)',
  'place.opensAt': 'Abre a las {time}',
  'place.opensOn': 'Abre el {day} a las {time}',
  'place.closesIn': '{minutes, plural, one {Cierra en # minuto} other {Cierra en # minutos}}',
  'place.closesAt': 'Cierra a las {time}',
  'place.localTime': 'Las horas son las locales del lugar ({zone}).',
  'place.address': 'Dirección',
  'place.phone': 'Teléfono',
  'place.access': 'Acceso en silla de ruedas',
  'place.map': 'Mapa de {name}',
  'place.links': 'Cómo llegar y enlaces',
  'place.directionsOsm': 'Cómo llegar (OpenStreetMap)',
  'place.directionsGoogle': 'Cómo llegar (Google Maps)',
  'place.improve': 'Mejora este lugar en OpenStreetMap',
  'place.description': '{category}, {address}: horario, teléfono y cómo llegar.',
  'place.descriptionNoAddress': '{category}: horario, teléfono y cómo llegar.',
  'card.noAddress': 'Dirección no disponible',
  'card.unnamed': 'Sin nombre en los datos del mapa',
  'card.near': 'Cerca de {address}',
  'card.approximate': 'Dirección aproximada, de la calle cercana',
  'card.distance': 'a {distance}',
  'card.viewOnMap': 'Ver en el mapa',
  'card.streetView': 'Vista de calle',
  'card.call': 'Llamar',
  'card.callPlace': 'Llamar a {name}',
  'card.noPhone': 'Sin número de teléfono',
  'card.website': 'Sitio web',
  'card.wheelchair.yes': 'Accesible en silla de ruedas',
  'card.wheelchair.limited': 'Acceso limitado en silla de ruedas',
  'card.wheelchair.no': 'No accesible en silla de ruedas',
  'card.wheelchair.unknown': 'Accesibilidad en silla de ruedas desconocida',

  'status.open': 'Abierto ahora',
  'status.closing_soon': 'Cierra pronto',
  'status.closed': 'Cerrado',
  'status.unknown': 'Horario desconocido',

  'map.label': 'Mapa de los resultados',
  'map.you': 'Estás aquí',
  'map.cluster': '{count, plural, one {# lugar aquí: pulse para acercar} other {# lugares aquí: pulse para acercar}}',
  'map.contributors': '© colaboradores de {osm}',

  'plans.heading': 'Planes y precios',
  'plans.intro': 'Pon tu negocio delante de quienes lo buscan cerca.',
  'plans.viewAll': 'Ver todos los planes',
  'plans.contactPrompt': '¿No sabes qué plan te conviene?',
  'plans.contactText': 'Cuéntanos sobre tu negocio y te ayudaremos a elegir.',
  'plans.contactUs': 'Contáctanos',
  'plans.billing': 'Periodo de facturación',
  'plans.monthly': 'Mensual',
  'plans.annual': 'Anual',
  'plans.annualDiscount': 'Ahorra un 20 %',
  'plans.perMonth': '/mes',
  'plans.perYear': '/año',
  'plans.priceMonthly': '{price} al mes',
  'plans.priceAnnual': '{price} al año',
  'plans.saving': 'Ahorra {amount} al año',
  'plans.mostPopular': 'Más popular',
  'plans.recommended': 'Recomendado',
  'plans.select': 'Elegir plan',
  'plans.features': 'Características',
  'plans.languages': 'Idiomas',
  'plans.trial': 'Todos los planes empiezan con una prueba gratuita de 14 días. Sin tarjeta de crédito.',
  'plans.empty': 'No hay planes disponibles en este momento. Vuelve pronto.',
  'plans.salesHeading': '¿Necesitas algo más grande?',
  'plans.salesText': 'Nuestro equipo comercial preparará un plan para varias sedes o una configuración a medida.',
  'plans.contactSales': 'Contactar con ventas',
  'plans.faqHeading': 'Preguntas frecuentes',
  'plans.faq.paymentQ': '¿Qué formas de pago aceptáis?',
  'plans.faq.paymentA':
    'Aceptamos las principales tarjetas de crédito y PayPal. Los planes anuales también pueden pagarse por transferencia bancaria.',
  'plans.faq.trialQ': '¿Cómo funciona la prueba gratuita?',
  'plans.faq.trialA':
    'Todos los planes empiezan con una prueba gratuita de 14 días, y no hace falta tarjeta de crédito para comenzar.',
  'plans.faq.annualQ': '¿Cuánto ahorro con la facturación anual?',
  'plans.faq.annualA': 'La facturación anual cuesta un 20 % menos que pagar mes a mes durante un año.',
  'plans.faq.supportQ': '¿Con qué rapidez respondéis?',
  'plans.faq.supportA': 'Respondemos en un plazo de 24 horas en días laborables.',

  'contact.heading': 'Contáctanos',
  'contact.intro': '¿Preguntas, comentarios o un lugar que añadir? Envíanos un mensaje.',
  'contact.formHeading': 'Enviar un mensaje',
  'contact.name': 'Nombre',
  'contact.email': 'Correo electrónico',
  'contact.subject': 'Asunto',
  'contact.message': 'Mensaje',
  'contact.required': 'Obligatorio',
  'contact.send': 'Enviar mensaje',
  'contact.sending': 'Enviando...',
  'contact.nameRequired': 'Escribe tu nombre.',
  'contact.emailRequired': 'Escribe tu dirección de correo electrónico.',
  'contact.emailInvalid': 'Escribe una dirección de correo válida, como nombre@ejemplo.com.',
  'contact.subjectRequired': 'Escribe un asunto.',
  'contact.messageRequired': 'Escribe tu mensaje.',
  'contact.tooLong': 'Es demasiado largo.',
  'contact.fixErrors': 'Corrige los campos marcados.',
  'contact.success': 'Mensaje enviado correctamente',
  'contact.error': 'Error al enviar el mensaje',
  'contact.tooMany': 'Error al enviar el mensaje: se han enviado demasiados mensajes. Inténtalo de nuevo más tarde.',
  'contact.infoHeading': 'Información de contacto',
  'contact.emailUs': 'Correo electrónico',
  'contact.hoursHeading': 'Horario de atención',
  'contact.dayRange': 'De {from} a {to}',
  'contact.timeRange': '{from} – {to}',
  'contact.closed': 'Cerrado',
  'contact.replyTime': 'Respondemos en un plazo de 24 horas en días laborables.',

  'category.healthcare': 'Salud',
  'category.amenity': 'Servicios',
  'category.shop': 'Tiendas',
  'category.tourism': 'Turismo',
  'category.education': 'Educación',
  'category.transport': 'Transporte',
  'category.entertainment': 'Ocio',
  'category.financial': 'Servicios financieros',
  'category.public_service': 'Servicios públicos',
  'category.restaurant': 'Restaurantes',
  'category.hotel': 'Hoteles',
  'category.parking': 'Aparcamientos',
  'category.pharmacy': 'Farmacias',
  'category.hospital': 'Hospitales',
  'category.bank': 'Bancos',
  'category.atm': 'Cajeros automáticos',
  'category.gas_station': 'Gasolineras',
  'category.supermarket': 'Supermercados',
  'category.bakery': 'Panaderías',
  'category.butcher': 'Carnicerías',
  'category.post_office': 'Oficinas de correos',
  'category.police': 'Policía',
  'category.fire_station': 'Parques de bomberos',
  'category.library': 'Bibliotecas',
  'category.gym': 'Gimnasios',
  'category.swimming_pool': 'Piscinas',
  'category.park': 'Parques',
  'category.playground': 'Parques infantiles',
  'category.cinema': 'Cines',
  'category.theater': 'Teatros',
  'category.museum': 'Museos',
  'category.public_toilets': 'Aseos públicos',
  'category.camping': 'Campings',
  'category.wifi': 'Puntos de acceso wifi',
} satisfies Dictionary;

export default es;
