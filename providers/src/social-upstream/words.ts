/** Vocabulary of the simulated platform. None of these words is a scenario prefix. */

const words = (list: string): readonly string[] => list.trim().split(/\s+/);

export const FIRST_NAMES = words(`
  mina jisoo hana yuna seojin minho jiwoo dahye sora eunbi taeyang hyunwoo chaeyoung emma
  olivia liam noah ava mia lucas sofia leo chloe ethan hugo ines yuki haruto aiko ren lena
  mateo zoe nora felix clara theo maya aria kai
`);

export const LAST_NAMES = words(`
  kim lee park choi jung kang cho yoon jang lim han oh seo shin kwon smith garcia martin rossi
  muller tanaka sato dubois silva nguyen walker moreau lopez
`);

export const NOUNS = words(`
  coffee bakes studio daily films eats travels style beauty fit lab home plants books vinyl
  ceramics cafe kitchen atelier moments diary journal world garden skin makeup run yoga pets
  wine
`);

export const BRANDS = words(`
  glowlab beanhouse urbanthread mintskin petalbox nordicpeak citrusco lumacosmetics brewcraft
  tidewear hanokstay kimchibar sunnyfarm velvetroom aerorun pixelcam oceansalt moonbrew
  greenbowl silkroute
`);

export const PLACES = words(`
  seoul busan jeju tokyo paris nyc london berlin
`);

export const HASHTAGS = words(`
  ootd foodie travel seoul cafe skincare makeup fitness weekend coffee bookstagram plantlover
  homedecor sunset photography dailylook kbeauty brunch running minimal vintage nature reels
  vlog
`);

export const CATEGORIES = [
  'Digital creator',
  'Personal blog',
  'Artist',
  'Photographer',
  'Health/beauty',
  'Clothing (Brand)',
  'Restaurant',
  'Food & beverage',
  'Video creator',
  'Musician/band',
  'Travel company',
  'Product/service',
  'Coach',
  'Cafe',
] as const;

export const COUNTRIES = [
  'South Korea',
  'South Korea',
  'South Korea',
  'Japan',
  'United States',
  'France',
  'Germany',
  'United Kingdom',
  'Spain',
  'Brazil',
  'Vietnam',
  'Italy',
] as const;

export const PRONOUNS = [[], [], [], ['she', 'her'], ['he', 'him'], ['they', 'them']] as const;

export const LOCATIONS = [
  {
    pk: '213385402',
    name: 'Seoul, South Korea',
    city: 'Seoul',
    address: '',
    lat: 37.5665,
    lng: 126.978,
  },
  {
    pk: '1024364512',
    name: 'Seongsu-dong',
    city: 'Seoul',
    address: 'Seongdong-gu',
    lat: 37.5446,
    lng: 127.0557,
  },
  {
    pk: '447263912',
    name: 'Haeundae Beach',
    city: 'Busan',
    address: 'Haeundae-gu, Busan',
    lat: 35.1587,
    lng: 129.1604,
  },
  { pk: '109563', name: 'Jeju Island', city: 'Jeju', address: '', lat: 33.4996, lng: 126.5312 },
  {
    pk: '212988663',
    name: 'Shibuya Crossing',
    city: 'Tokyo',
    address: '2 Chome-2-1 Dogenzaka, Shibuya',
    lat: 35.6595,
    lng: 139.7005,
  },
  { pk: '6889842', name: 'Paris, France', city: 'Paris', address: '', lat: 48.8566, lng: 2.3522 },
  {
    pk: '212988663001',
    name: 'Cafe Onion Anguk',
    city: 'Seoul',
    address: '5 Gyedong-gil, Jongno-gu',
    lat: 37.5779,
    lng: 126.9869,
  },
  {
    pk: '236937',
    name: 'Brooklyn Bridge',
    city: 'New York',
    address: 'Brooklyn Bridge, New York, NY',
    lat: 40.7061,
    lng: -73.9969,
  },
  {
    pk: '7226110',
    name: 'Hongdae',
    city: 'Seoul',
    address: 'Mapo-gu',
    lat: 37.5563,
    lng: 126.9237,
  },
  {
    pk: '213131048',
    name: 'London, United Kingdom',
    city: 'London',
    address: '',
    lat: 51.5074,
    lng: -0.1278,
  },
] as const;

export const CAPTION_OPENERS = [
  'Sunday mornings like this ☕️',
  'New week, new goals',
  'Finally tried the place everyone talks about',
  'Golden hour never disappoints',
  'A little reset for the weekend',
  'Behind the scenes of today’s shoot',
  'Packing list for the trip ✈️',
  'My current skincare routine, step by step',
  'Three things that made my week',
  'Slow days are the best days',
  'Can’t stop wearing this',
  'Long run done 🏃‍♀️ legs are jelly',
] as const;

export const CAPTION_MIDDLES = [
  'Honestly did not expect it to be this good.',
  'Swipe for the details and let me know what you think.',
  'Saving this one for the memories.',
  'Full review in the comments, ask me anything!',
  'Thank you all for the love on the last post 🤍',
  'This spot is officially on my list of favourites.',
  '',
] as const;

export const GUIDE_TITLES = [
  'My favourite cafes',
  'Weekend in Busan',
  'Skincare essentials',
  'Where to eat in Seongsu',
  'Reading list',
  'Home workout picks',
  'Gift ideas under 30',
  'Film cameras I love',
] as const;

export const HIGHLIGHT_TITLES = words(`
  Travel Food Q&A Daily Reviews Collabs Skincare Tokyo Jeju OOTD Cafe Events Pets Studio
`);

export const BIO_LINES = [
  'Seoul based ✨',
  'Coffee, film cameras and long walks',
  'Creator | Collabs via DM',
  'Slow living & good food',
  'Skincare nerd 🧴',
  'Runner, reader, amateur baker',
  'Capturing small moments 📷',
  'Travel diaries from everywhere',
] as const;
