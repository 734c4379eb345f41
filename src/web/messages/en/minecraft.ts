import type { minecraft as zh } from '../zh-CN/minecraft.js';
import type { Translation } from '../messages.js';

export const minecraft: Translation<typeof zh> = {
  'mc.title': 'Minecraft profiles',
  'mc.hint':
    'In your launcher, add an external login (authlib-injector) account with the server address below. Accounts with two-step verification use the game token instead of the password.',
  'mc.apiRoot': 'Authentication server address',
  'mc.none': 'No profiles yet.',
  'mc.skin': 'skin',
  'mc.cape': 'cape',
  'mc.notSet': 'No {label} set',
  'mc.modelDefault': 'Classic (Steve)',
  'mc.modelSlim': 'Slim (Alex)',
  'mc.upload': 'Upload {label}',
  'mc.file': '{label} file (PNG)',
  'mc.armModel': 'Arm model',
  'mc.chooseFile': 'Choose a {label} file',
  'mc.updated': 'Updated the {label}',
  'mc.deleteTexture': 'Remove {label}',
  'mc.deletedTexture': 'Removed the {label}',
  'mc.modelOnly': 'Change the model only',
  'mc.modelUpdated': 'Arm model updated',
  'mc.rename': 'Rename',
  'mc.name': 'Profile name',
  'mc.renamed': 'Renamed',
  'mc.delete': 'Delete profile',
  'mc.confirmDelete':
    'Delete the profile {name}? Launchers signed in with it are signed out.',
  'mc.deleted': 'Deleted the profile {name}',
  'mc.create': 'Create profile',
  'mc.newName': 'New profile name',
  'mc.nameHint':
    '1 to 16 letters, digits or underscores, unique on this site (ignoring case)',
  'mc.created': 'Profile created',
};
