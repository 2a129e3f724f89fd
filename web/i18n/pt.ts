// Português.
import type { Dictionary } from './en';

const pt = {
  'app.loading': 'Carregando...',
  'app.skipToContent': 'Ir para o conteúdo principal',
  'app.opensInNewTab': '(abre em uma nova aba)',

  'nav.label': 'Navegação principal',
  'nav.home': 'Início',
  'nav.contact': 'Contato',
  'nav.plans': 'Planos',
  'nav.menu': 'Menu',
  'nav.language': 'Idioma',
  'nav.homeLink': '{site}, página inicial',

  'footer.description':
    'Encontre farmácias, restaurantes, bancos, parques e muitos outros lugares perto de você, ' +
    'com horários e rotas, com base em dados de mapas abertos.',
  'footer.follow': 'Siga-nos',
  'footer.followOn': 'Siga-nos no {network}',
  'footer.quickLinks': 'Links rápidos',
  'footer.legal': 'Informações legais',
  'footer.privacy': 'Política de privacidade',
  'footer.terms': 'Termos de uso',
  'legal.privacyDescription': 'O que este site guarda sobre os visitantes, e o que não guarda.',
  'legal.termsDescription': 'Os termos de uso deste site e das informações de lugares.',
  'legal.privacyDefault':
    'Este site ajuda você a encontrar lugares perto de você. Esta página explica o que ele guarda ' +
    'sobre você e o que não guarda.\n' +
    '\n' +
    '## O que o site guarda\n' +
    '- As mensagens que você envia pelo formulário de contato: seu nome, e-mail, assunto e mensagem, ' +
    'para que possamos responder. Elas ficam guardadas até que um administrador as apague.\n' +
    '- A contagem de visitas: quantas visitas o site recebe por dia, sem nada sobre quem visitou.\n' +
    '- Estatísticas de busca: as categorias buscadas, os nomes de cidades digitados e a área de cada ' +
    'busca arredondada a cerca de 1 km, contadas por dia e nunca ligadas a você.\n' +
    '\n' +
    '## O que ele não guarda\n' +
    '- Nenhum cookie de rastreamento ou de publicidade, e nenhuma análise de outras empresas. Só os ' +
    'administradores recebem um cookie, para continuar conectados.\n' +
    '- Sua posição: quando você permite, seu navegador a envia com uma busca para encontrar os ' +
    'lugares próximos. Ela não é guardada, exceto arredondada a cerca de 1 km nas estatísticas ' +
    'acima.\n' +
    '\n' +
    '## Bom saber\n' +
    '- Seu navegador lembra o idioma que você escolheu, no seu dispositivo.\n' +
    '- Como qualquer servidor web, o deste site registra as solicitações (endereço IP, página, hora) ' +
    'em registros técnicos que o mantêm funcionando e seguro, guardados só pelo tempo necessário.\n' +
    '- O mapa pode ser desenhado por um serviço de mapas externo, que então recebe seu endereço IP ' +
    'como qualquer site que você visita. Botões como Ver no mapa e Vista da rua abrem outros serviços ' +
    'só quando você os toca.\n' +
    '\n' +
    '## Seus direitos\n' +
    'Para saber o que o site guarda sobre você, ou pedir que suas mensagens sejam apagadas, escreva ' +
    'para nós pela página de contato.',
  'legal.termsDefault':
    'Ao usar este site, você aceita estes termos.\n' +
    '\n' +
    '## As informações\n' +
    'As informações dos lugares vêm dos colaboradores do OpenStreetMap e dos registros do próprio ' +
    'site. Elas podem estar incompletas ou desatualizadas: horários, endereços e telefones mudam, ' +
    'então confirme com o lugar antes de ir. O site não garante que estejam corretas.\n' +
    '\n' +
    '## Uso justo\n' +
    'Use o site para as suas próprias buscas. Não o sobrecarregue com solicitações automáticas e não ' +
    'o use para nada ilegal.\n' +
    '\n' +
    '## Outros serviços\n' +
    'Links e botões (mapas, imagens da rua, sites dos lugares, anúncios patrocinados) levam a outros ' +
    'serviços, que têm seus próprios termos.\n' +
    '\n' +
    '## Dados do mapa\n' +
    'Dados do mapa e dos lugares © colaboradores do OpenStreetMap, disponíveis sob a Open Database ' +
    'License. A Política de privacidade do site descreve como ele trata os dados pessoais.\n' +
    '\n' +
    '## Mudanças\n' +
    'Estes termos podem mudar; vale a versão que está nesta página.',
  'footer.copyright': '© {year} {site}. Todos os direitos reservados.',
  'footer.mapData':
    'Dados de mapas e lugares © colaboradores do OpenStreetMap, disponíveis sob a Open Database License.',

  'hero.defaultTitle': 'Encontre serviços perto de você',
  'hero.subtitle': 'Farmácias, restaurantes, bancos, parques e muito mais ao seu redor, em um mapa e em uma lista.',
  'hero.cta': 'Começar a buscar',

  'ads.carouselLabel': 'Ofertas em destaque',
  'ads.slide': 'Slide {current} de {total}',
  'ads.previous': 'Slide anterior',
  'ads.next': 'Próximo slide',
  'ads.goTo': 'Mostrar o slide {number}',
  'ads.pause': 'Pausar a apresentação',
  'ads.play': 'Retomar a apresentação',
  'ads.untitled': 'Anúncio patrocinado',
  'ads.imageUnavailable': 'Imagem indisponível',
  'ads.sponsored': 'Anúncios patrocinados',

  'video.label': 'Vídeo em destaque',
  'video.mute': 'Silenciar',
  'video.unmute': 'Ativar som',
  'video.play': 'Reproduzir vídeo',
  'video.pause': 'Pausar vídeo',
  'video.fullscreen': 'Tela cheia',
  'video.exitFullscreen': 'Sair da tela cheia',

  'embed.openSite': 'Abrir {site} num novo separador',
  'locator.heading': 'Buscar lugares próximos',
  'locator.intro': 'Escolha uma ou mais categorias e busque ao redor da sua localização ou em uma cidade.',
  'locator.refreshSettings': 'Atualizar configurações',
  'locator.categories': 'Categorias',
  'locator.selectedCount': '{count, plural, one {# selecionada} other {# selecionadas}}',
  'locator.clearCategories': 'Limpar seleção',
  'locator.moreCategories': 'Mais categorias',
  'locator.fewerCategories': 'Menos categorias',
  'locator.options': 'Opções de busca',
  'locator.openNow': 'Somente abertos agora',
  'locator.wheelchair': 'Somente acessíveis para cadeira de rodas',
  'locator.wheelchairLimited': 'Incluir acesso limitado para cadeira de rodas',
  'locator.travel': 'Como você vai',
  'locator.travelHint': 'Serve para saber se os lugares ainda estarão abertos quando você chegar.',
  'locator.travel.none': 'Não indicado',
  'locator.travel.walk': 'A pé',
  'locator.travel.bike': 'De bicicleta',
  'locator.travel.drive': 'De carro',
  'locator.name': 'Nome',
  'locator.nameHint': 'Parte do nome de um local, ex.: “starb” para Starbucks. Sem categorias, busca em todas.',
  'locator.share': 'Compartilhar esta busca',
  'locator.linkCopied': 'Link copiado',
  'locator.city': 'Cidade',
  'locator.cityHint': 'Deixe vazio para buscar ao redor da sua localização.',
  'locator.cityPlaceholder': 'ex.: {city}',
  'locator.search': 'Buscar perto de mim',
  'locator.searching': 'Buscando...',
  'locator.selectCategory': 'Selecione pelo menos uma categoria',

  'location.locating': 'Localizando você...',
  'location.found': 'Usando sua localização atual.',
  'location.denied': 'Acesso à localização negado. Usando a localização padrão.',
  'location.insecure': 'Usando a localização padrão. Para usar o GPS, acesse via localhost ou ative o HTTPS.',
  'location.needed': 'Acesso à localização negado. Ative os serviços de localização.',

  'search.retrying': 'Serviço temporariamente indisponível. Tentando novamente...',
  'search.unavailable': 'Serviço temporariamente indisponível. Tente novamente mais tarde.',
  'search.cityNotFound': 'Essa cidade não foi encontrada. Verifique a grafia ou deixe o campo vazio.',

  'results.heading': 'Resultados',
  'results.count.one': '{count} lugar encontrado',
  'results.count.other': '{count} lugares encontrados',
  'results.showing': 'Mostrando 1-{shown} de {total} resultados',
  'results.noneHint': 'Nenhum resultado encontrado. Tente outra categoria ou localização.',
  'results.noCoverage': 'Este site ainda não tem lugares por aqui: os dados de lugares dele não cobrem esta área.',
  'results.prompt': 'Escolha categorias e toque em Buscar perto de mim para ver os lugares ao seu redor.',
  'results.loading': 'Carregando resultados...',
  'results.loadMore': 'Carregar mais',

  'place.notFound': 'Local não encontrado',
  'place.notFoundText': 'Este local não está no nosso índice: pode ter fechado ou sido removido do OpenStreetMap.',
  'place.loadError': 'Não foi possível carregar este local',
  'place.loadErrorText': 'Tente novamente em instantes.',
  'place.back': 'Voltar à busca',
  'browse.heading': 'Explorar lugares por cidade',
  'browse.intro': 'Os lugares que conhecemos, cidade a cidade e por tipo.',
  'group.title': '{category} em {town}',
  'group.description': '{category} em {town}: endereços, telefones e horários, com uma página para cada lugar.',
  'group.notFound': 'Nada listado aqui',
  'group.notFoundText': 'Não temos lugares deste tipo nesta cidade.',
  'group.unnamed': 'Lugar sem nome',
  'place.hours': 'Horário de funcionamento',
  'place.hoursUnknown': 'Horário desconhecido',
  'place.closedAllDay': 'Fechado',
  'place.open24': 'Aberto 24 horas',
  'place.today': '(hoje)',
  'place.opensAt': 'Abre às {time}',
  'place.opensOn': 'Abre {day} às {time}',
  'place.closesIn': '{minutes, plural, one {Fecha em # minuto} other {Fecha em # minutos}}',
  'place.closesAt': 'Fecha às {time}',
  'place.localTime': 'Os horários são a hora local do lugar ({zone}).',
  'place.address': 'Endereço',
  'place.phone': 'Telefone',
  'place.access': 'Acesso para cadeira de rodas',
  'place.map': 'Mapa de {name}',
  'place.links': 'Como chegar e links',
  'place.directionsOsm': 'Como chegar (OpenStreetMap)',
  'place.directionsGoogle': 'Como chegar (Google Maps)',
  'place.improve': 'Melhore este local no OpenStreetMap',
  'place.description': '{category}, {address}: horário, telefone e direções.',
  'place.descriptionNoAddress': '{category}: horário, telefone e direções.',
  'card.noAddress': 'Endereço não disponível',
  'card.unnamed': 'Sem nome nos dados do mapa',
  'card.near': 'Perto de {address}',
  'card.approximate': 'Endereço aproximado, da rua próxima',
  'card.distance': 'a {distance}',
  'card.viewOnMap': 'Ver no mapa',
  'card.streetView': 'Vista da rua',
  'card.call': 'Ligar',
  'card.callPlace': 'Ligar para {name}',
  'card.noPhone': 'Sem número de telefone',
  'card.website': 'Site',
  'card.wheelchair.yes': 'Acessível para cadeira de rodas',
  'card.wheelchair.limited': 'Acesso limitado para cadeira de rodas',
  'card.wheelchair.no': 'Não acessível para cadeira de rodas',
  'card.wheelchair.unknown': 'Acessibilidade para cadeira de rodas desconhecida',

  'status.open': 'Aberto agora',
  'status.closing_soon': 'Fecha em breve',
  'status.closed': 'Fechado',
  'status.unknown': 'Horário desconhecido',

  'map.label': 'Mapa dos resultados',
  'map.you': 'Você está aqui',
  'map.cluster':
    '{count, plural, one {# lugar aqui: toque para aproximar} other {# lugares aqui: toque para ' + 'aproximar}}',
  'map.contributors': '© colaboradores do {osm}',

  'plans.heading': 'Planos e preços',
  'plans.intro': 'Coloque seu negócio diante de quem o procura por perto.',
  'plans.viewAll': 'Ver todos os planos',
  'plans.contactPrompt': 'Não sabe qual plano é o ideal?',
  'plans.contactText': 'Conte-nos sobre o seu negócio e ajudaremos você a escolher.',
  'plans.contactUs': 'Fale conosco',
  'plans.billing': 'Período de cobrança',
  'plans.monthly': 'Mensal',
  'plans.annual': 'Anual',
  'plans.annualDiscount': 'Economize 20%',
  'plans.perMonth': '/mês',
  'plans.perYear': '/ano',
  'plans.priceMonthly': '{price} por mês',
  'plans.priceAnnual': '{price} por ano',
  'plans.saving': 'Economize {amount} por ano',
  'plans.mostPopular': 'Mais popular',
  'plans.recommended': 'Recomendado',
  'plans.select': 'Escolher plano',
  'plans.features': 'Recursos',
  'plans.languages': 'Idiomas',
  'plans.trial': 'Todos os planos começam com um teste grátis de 14 dias. Sem cartão de crédito.',
  'plans.empty': 'Nenhum plano disponível no momento. Volte em breve.',
  'plans.salesHeading': 'Precisa de algo maior?',
  'plans.salesText': 'Nossa equipe de vendas montará um plano para várias unidades ou uma configuração sob medida.',
  'plans.contactSales': 'Falar com vendas',
  'plans.faqHeading': 'Perguntas frequentes',
  'plans.faq.paymentQ': 'Quais formas de pagamento vocês aceitam?',
  'plans.faq.paymentA':
    'Aceitamos os principais cartões de crédito e PayPal. Os planos anuais também podem ser pagos por transferência bancária.',
  'plans.faq.trialQ': 'Como funciona o teste grátis?',
  'plans.faq.trialA':
    'Todos os planos começam com um teste grátis de 14 dias, e não é preciso cartão de crédito para começar.',
  'plans.faq.annualQ': 'Quanto economizo com a cobrança anual?',
  'plans.faq.annualA': 'A cobrança anual custa 20% menos do que pagar mês a mês durante um ano.',
  'plans.faq.supportQ': 'Com que rapidez vocês respondem?',
  'plans.faq.supportA': 'Respondemos em até 24 horas em dias úteis.',

  'contact.heading': 'Fale conosco',
  'contact.intro': 'Dúvidas, sugestões ou um lugar para adicionar? Envie-nos uma mensagem.',
  'contact.formHeading': 'Enviar uma mensagem',
  'contact.name': 'Nome',
  'contact.email': 'E-mail',
  'contact.subject': 'Assunto',
  'contact.message': 'Mensagem',
  'contact.required': 'Obrigatório',
  'contact.send': 'Enviar mensagem',
  'contact.sending': 'Enviando...',
  'contact.nameRequired': 'Informe seu nome.',
  'contact.emailRequired': 'Informe seu endereço de e-mail.',
  'contact.emailInvalid': 'Informe um e-mail válido, como nome@exemplo.com.',
  'contact.subjectRequired': 'Informe um assunto.',
  'contact.messageRequired': 'Escreva sua mensagem.',
  'contact.tooLong': 'Isto é longo demais.',
  'contact.fixErrors': 'Corrija os campos destacados.',
  'contact.success': 'Mensagem enviada com sucesso',
  'contact.error': 'Erro ao enviar a mensagem',
  'contact.tooMany': 'Erro ao enviar a mensagem: muitas mensagens foram enviadas. Tente novamente mais tarde.',
  'contact.infoHeading': 'Informações de contato',
  'contact.emailUs': 'E-mail',
  'contact.hoursHeading': 'Horário de atendimento',
  'contact.dayRange': 'De {from} a {to}',
  'contact.timeRange': '{from} – {to}',
  'contact.closed': 'Fechado',
  'contact.replyTime': 'Respondemos em até 24 horas em dias úteis.',

  'category.healthcare': 'Saúde',
  'category.amenity': 'Comodidades',
  'category.shop': 'Lojas',
  'category.tourism': 'Turismo',
  'category.education': 'Educação',
  'category.transport': 'Transporte',
  'category.entertainment': 'Entretenimento',
  'category.financial': 'Serviços financeiros',
  'category.public_service': 'Serviços públicos',
  'category.restaurant': 'Restaurantes',
  'category.hotel': 'Hotéis',
  'category.parking': 'Estacionamentos',
  'category.pharmacy': 'Farmácias',
  'category.hospital': 'Hospitais',
  'category.bank': 'Bancos',
  'category.atm': 'Caixas eletrônicos',
  'category.gas_station': 'Postos de combustível',
  'category.supermarket': 'Supermercados',
  'category.bakery': 'Padarias',
  'category.butcher': 'Açougues',
  'category.post_office': 'Agências dos correios',
  'category.police': 'Polícia',
  'category.fire_station': 'Corpo de bombeiros',
  'category.library': 'Bibliotecas',
  'category.gym': 'Academias',
  'category.swimming_pool': 'Piscinas',
  'category.park': 'Parques',
  'category.playground': 'Parquinhos',
  'category.cinema': 'Cinemas',
  'category.theater': 'Teatros',
  'category.museum': 'Museus',
  'category.public_toilets': 'Banheiros públicos',
  'category.camping': 'Áreas de camping',
  'category.wifi': 'Pontos de Wi-Fi',
} satisfies Dictionary;

export default pt;
